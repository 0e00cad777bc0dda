//! The server's tests, in one binary: a real server on a loopback port per test, real HTTP
//! and websocket clients.

mod archive;
mod bad_input;
mod common;
mod legend;
mod limits;
mod live;
mod play;
mod records;
mod web;
