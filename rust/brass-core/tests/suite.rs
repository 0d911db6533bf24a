//! The integration tests of brass-core, one module per file of this directory, built as one test binary:
//! a change to the library then relinks one binary instead of fifteen (`cargo test` and each mutant of
//! `nox -s mutants` build several times faster). `cargo test -p brass-core rules_build::` runs one file.
mod common;

mod agents;
mod hidden_information;
mod observation;
mod occupancy;
mod random_games;
mod rules_actions;
mod rules_birmingham;
mod rules_build;
mod rules_classic;
mod rules_network;
mod rules_resources;
mod rules_round;
mod rules_setup;
mod sampler;
mod state_checks;
mod vecenv;
mod vectors;
