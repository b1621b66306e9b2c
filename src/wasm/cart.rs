//! Cart and money exports (issue 4).
