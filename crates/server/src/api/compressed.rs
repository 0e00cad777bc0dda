//! Answers that never change while the server runs (the files of `web/`, the ruleset
//! listing), compressed once with brotli and gzip and kept: each request picks the coding
//! its `Accept-Encoding` allows, and a matching `If-None-Match` gets a 304.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::io::Write;

/// Smaller bodies are sent as they are: compressing them saves less than its headers cost.
const WORTH_COMPRESSING: usize = 1024;
/// Brotli's quality: near its best ratio, at a few milliseconds per hundred kilobytes (each
/// body is compressed once).
const BROTLI_QUALITY: u32 = 9;
/// Brotli's window, as a power of two.
const BROTLI_WINDOW: u32 = 22;

/// One body in every coding kept.
pub struct Compressed {
    identity: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    /// The body's tag, without quotes; each coding's `ETag` adds its name.
    tag: String,
    content_type: &'static str,
}

impl Compressed {
    /// `body` of `content_type`, tagged `tag`, compressed if worth it.
    pub fn new(body: Bytes, content_type: &'static str, tag: String) -> Compressed {
        let compressible = body.len() >= WORTH_COMPRESSING
            && (content_type.starts_with("text/")
                || content_type.starts_with("application/json")
                || content_type.starts_with("image/svg"));
        let (gzip, brotli) = if compressible {
            (gzip(&body), brotli(&body))
        } else {
            (None, None)
        };
        Compressed {
            // A coding that does not make the body smaller is not offered.
            gzip: gzip.filter(|g| g.len() < body.len()),
            brotli: brotli.filter(|b| b.len() < body.len()),
            identity: body,
            tag,
            content_type,
        }
    }

    /// The body itself, uncompressed.
    pub fn body(&self) -> &Bytes {
        &self.identity
    }

    /// The body as the request's headers ask for it.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let (coding, body) = match (&self.brotli, &self.gzip) {
            (Some(b), _) if accepts(request, "br") => (Some("br"), b),
            (_, Some(g)) if accepts(request, "gzip") => (Some("gzip"), g),
            _ => (None, &self.identity),
        };
        let etag = match coding {
            Some(coding) => format!("\"{}-{coding}\"", self.tag),
            None => format!("\"{}\"", self.tag),
        };
        // Any of this body's tags names the same content.
        let cached = request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| {
                v.split(',').any(|t| {
                    let t = t.trim().trim_start_matches("W/").trim_matches('"');
                    t.split('-').next() == Some(self.tag.as_str())
                })
            });
        let mut response = if cached {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            ([(header::CONTENT_TYPE, self.content_type)], body.clone()).into_response()
        };
        let headers = response.headers_mut();
        if let Some(coding) = coding.filter(|_| !cached) {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        if self.gzip.is_some() || self.brotli.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        // Revalidated on every load: a new binary's files are seen at once, and unchanged
        // ones cost a 304.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        if let Ok(value) = HeaderValue::from_str(&etag) {
            headers.insert(header::ETAG, value);
        }
        response
    }
}

/// Whether `Accept-Encoding` allows `coding` (named, or `*`, without `q=0`).
fn accepts(request: &HeaderMap, coding: &str) -> bool {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case(coding) || name == "*") && !refused
        })
}

fn gzip(body: &[u8]) -> Option<Bytes> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(body).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

fn brotli(body: &[u8]) -> Option<Bytes> {
    let mut encoder =
        brotli::CompressorWriter::new(Vec::new(), 4096, BROTLI_QUALITY, BROTLI_WINDOW);
    encoder.write_all(body).ok()?;
    encoder.flush().ok()?;
    Some(Bytes::from(encoder.into_inner()))
}

/// A short tag of `body`'s content.
pub fn tag_of(body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(body)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|&(k, v)| (k.parse().unwrap(), HeaderValue::from_static(v)))
            .collect()
    }

    async fn body_of(response: Response) -> Vec<u8> {
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec()
    }

    #[tokio::test]
    async fn each_client_gets_the_coding_it_accepts_and_the_same_content() {
        let text = "{\"a\": 1}".repeat(500);
        let kept = Compressed::new(
            Bytes::from(text.clone()),
            "application/json",
            tag_of(text.as_bytes()),
        );
        let br = kept.respond(&headers(&[("accept-encoding", "gzip, deflate, br")]));
        assert_eq!(br.headers()[header::CONTENT_ENCODING], "br");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&body_of(br).await[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, text.as_bytes());
        let gz = kept.respond(&headers(&[("accept-encoding", "gzip, br;q=0")]));
        assert_eq!(gz.headers()[header::CONTENT_ENCODING], "gzip");
        let zipped = body_of(gz).await;
        assert!(zipped.len() < text.len() / 10);
        let mut plain = String::new();
        flate2::read::GzDecoder::new(&zipped[..])
            .read_to_string(&mut plain)
            .unwrap();
        assert_eq!(plain, text);
        let identity = kept.respond(&HeaderMap::new());
        assert!(identity.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(identity.headers()[header::VARY], "accept-encoding");
        let etag = identity.headers()[header::ETAG].clone();
        assert_eq!(body_of(identity).await, text.as_bytes());
        // Its tag, whichever coding it came in, gets a 304.
        let again = kept.respond(&headers(&[("accept-encoding", "br")]));
        let br_etag = again.headers()[header::ETAG].to_str().unwrap().to_string();
        for tag in [etag.to_str().unwrap().to_string(), br_etag] {
            let mut request = HeaderMap::new();
            request.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&tag).unwrap());
            assert_eq!(kept.respond(&request).status(), StatusCode::NOT_MODIFIED);
        }
    }

    #[test]
    fn small_or_binary_bodies_are_kept_as_they_are() {
        let small = Compressed::new(Bytes::from_static(b"hello"), "text/plain", "t".into());
        assert!(small.gzip.is_none() && small.brotli.is_none());
        let png = Compressed::new(Bytes::from(vec![7u8; 5000]), "image/png", "p".into());
        assert!(png.gzip.is_none() && png.brotli.is_none());
    }
}
