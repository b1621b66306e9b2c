//! (to be written: see docs/ARCHITECTURE.md)
