//! The `protocol` target: see `chaturanga_fuzz::protocol`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::protocol::protocol(data);
});
