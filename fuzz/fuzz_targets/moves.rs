//! The `moves` target: see `chaturanga_fuzz::moves`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::moves(data);
});
