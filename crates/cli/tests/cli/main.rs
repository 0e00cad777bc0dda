//! The command line through the real binary, one test binary: its commands, the engine
//! protocols, matches against real engines, and the server's processes.

mod commands;
mod engine_cli;
mod peer_matches;
mod protocols;
mod serve;
mod server_crash;
mod server_nodes;
