//! The `rules` target: see `chaturanga_fuzz::rules`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::rules(data);
});
