//! The `options` target: see `chaturanga_fuzz::options`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::options(data);
});
