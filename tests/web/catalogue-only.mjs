// An ESLint rule for web/js: words a person reads come from the message catalogue (`t(key)`,
// web/js/i18n.js), never from a literal in the code. It reports a string or template literal
// with a word in it (two letters or more) where the page shows it: a child of `h(…)`, the
// title, placeholder, alt or aria-label given to `h(…)` or `setAttribute`, `textContent`,
// `title` or `placeholder` assigned, and the message of `toast`, `confirm` or `alert`; and
// anywhere, a literal that reads as a sentence or a label (a capital, then words; or three
// words or more), such as the values of a table of words.

const WORD = /\p{L}{2,}/u;
const SHOWN_ATTRIBUTES = new Set(["title", "placeholder", "alt", "aria-label", "label"]);
const SHOWN_PROPERTIES = new Set(["textContent", "innerText", "title", "placeholder"]);
const MESSAGES = new Set(["toast", "confirm", "alert"]);
/** A capitalised word and at least one more: how labels and sentences start. */
const SENTENCE = /^\p{Lu}\p{Ll}+[\s,]+\p{L}|^\p{L}+[,:]?(\s+\p{L}+[,.:]?){2,}/u;

/**
 * The literals an expression shows as they stand: itself, or the branches of a choice or
 * a concatenation.
 * @param {any} node
 * @returns {any[]}
 */
function shownLiterals(node) {
  if (!node) return [];
  if (node.type === "Literal" && typeof node.value === "string") return WORD.test(node.value) ? [node] : [];
  if (node.type === "TemplateLiteral")
    return node.quasis.some((/** @type {any} */ q) => WORD.test(q.value.cooked ?? "")) ? [node] : [];
  if (node.type === "ConditionalExpression")
    return [...shownLiterals(node.consequent), ...shownLiterals(node.alternate)];
  if (node.type === "LogicalExpression") return [...shownLiterals(node.left), ...shownLiterals(node.right)];
  if (node.type === "BinaryExpression" && node.operator === "+")
    return [...shownLiterals(node.left), ...shownLiterals(node.right)];
  if (node.type === "ArrayExpression") return node.elements.flatMap(shownLiterals);
  return [];
}

/** @param {any} property */
function keyName(property) {
  if (property.type !== "Property") return null;
  if (property.key.type === "Identifier") return property.key.name;
  if (property.key.type === "Literal") return String(property.key.value);
  return null;
}

/** @type {import("eslint").Rule.RuleModule} */
const rule = {
  meta: {
    type: "problem",
    docs: { description: "words shown to a person come from the message catalogue" },
    messages: { literal: "Shown to a person: use a catalogue message t(…) instead of {{text}}." },
    schema: [],
  },
  create(context) {
    /** @type {Set<any>} */
    const done = new Set();
    /** @param {any} node */
    const report = (node) => {
      if (done.has(node)) return;
      done.add(node);
      context.report({
        node,
        messageId: "literal",
        data: { text: context.sourceCode.getText(node).slice(0, 40) },
      });
    };
    return {
      /** @param {any} node */
      Literal(node) {
        if (typeof node.value === "string" && SENTENCE.test(node.value)) report(node);
      },
      /** @param {any} node */
      TemplateElement(node) {
        if (SENTENCE.test(node.value.cooked ?? "")) report(node);
      },
      /** @param {any} node */
      CallExpression(node) {
        const callee = node.callee;
        const name = callee.type === "Identifier" ? callee.name : null;
        const method =
          callee.type === "MemberExpression" && callee.property.type === "Identifier" ? callee.property.name : null;
        if (name === "h") {
          node.arguments.slice(2).flatMap(shownLiterals).forEach(report);
          const attributes = node.arguments[1];
          if (attributes?.type === "ObjectExpression") {
            for (const p of attributes.properties) {
              if (SHOWN_ATTRIBUTES.has(keyName(p) ?? "")) shownLiterals(p.value).forEach(report);
            }
          }
        } else if (
          (name && MESSAGES.has(name)) ||
          (method && MESSAGES.has(method) && callee.object.name === "window")
        ) {
          shownLiterals(node.arguments[0]).forEach(report);
        } else if (method === "setAttribute") {
          const attribute = node.arguments[0];
          if (attribute?.type === "Literal" && SHOWN_ATTRIBUTES.has(String(attribute.value)))
            shownLiterals(node.arguments[1]).forEach(report);
        } else if (method === "append" || method === "prepend" || method === "replaceChildren") {
          node.arguments.flatMap(shownLiterals).forEach(report);
        }
      },
      /** @param {any} node */
      AssignmentExpression(node) {
        const left = node.left;
        if (
          left.type === "MemberExpression" &&
          left.property.type === "Identifier" &&
          SHOWN_PROPERTIES.has(left.property.name)
        )
          shownLiterals(node.right).forEach(report);
      },
    };
  },
};

export default { rules: { "catalogue-only": rule } };
