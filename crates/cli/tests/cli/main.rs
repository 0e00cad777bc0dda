//! The command line through the real binary, one test binary: its commands, the engine
//! protocols, matches against real engines, real XBoard running our engine, and the
//! server's processes.

mod commands;
mod cshogi_usi;
mod engine_cli;
mod fairy_stockfish_conformance;
mod peer_matches;
mod protocols;
mod python_client;
mod python_clients;
mod record_readers;
mod screens;
mod serve;
mod server_crash;
mod server_nodes;
mod xboard_gui;
