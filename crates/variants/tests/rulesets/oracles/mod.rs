//! Differential tests against independent programs (python-chess, pyffish, cshogi, HaChu)
//! and the second implementations under `tests/oracles`.
mod bughouse;
mod chex;
mod compound;
mod cshogi;
mod cshogi_records;
mod gess;
mod hachu;
mod hexchess;
mod independent;
mod pyffish;
mod python_chess;
mod taktika_makarenko;
mod threeplayer;
