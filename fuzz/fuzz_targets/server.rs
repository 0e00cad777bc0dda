//! The `server` target: see `chaturanga_fuzz::server`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chaturanga_fuzz::server::server(data);
});
