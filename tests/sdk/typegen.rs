//! Generates the TypeScript model types and the response schemas (js/generated/) from
//! the Rust wire types (being written).
