//! The `records` target: see `chaturanga_fuzz::records`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::records(data);
});
