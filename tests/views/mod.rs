//! core-tensor-views (seed 000) and core-tensor-representation (contracts §4): one test per
//! requirement and scenario, named after it, plus property tests.

mod atomicity;
mod borrowed;
mod messages;
mod representation;
mod scenarios;
mod support;
