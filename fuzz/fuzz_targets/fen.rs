//! The `fen` target: see `chaturanga_fuzz::fen`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::fen(data);
});
