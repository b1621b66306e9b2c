//! The origin's `localStorage` as the tabs share it, holding the checkout
//! record (a value of the protocol's record type `R`), with its faults:
//! `setItem` throwing (quota), storage absent (every access throws). Reads and
//! writes are synchronous, as in a browser. The `storage` events other tabs
//! get are queued per tab by the world (late, lost, reordered there).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `setItem` throws `QuotaExceededError`.
    Full,
    /// `localStorage` itself throws (disabled, sandboxed).
    Absent,
}

#[derive(Debug, Clone)]
pub struct Storage<R> {
    record: Option<R>,
    /// Set for the whole schedule: storage is not there at all.
    pub absent: bool,
    /// `setItem` throws while set (storage filled up by something else).
    pub full: bool,
    /// Successful writes so far (a storage event's label).
    pub writes: u64,
}

impl<R: Clone> Storage<R> {
    pub const fn new(absent: bool) -> Self {
        Self { record: None, absent, full: false, writes: 0 }
    }

    /// `getItem`.
    pub fn read(&self) -> Result<Option<R>, Fault> {
        if self.absent {
            return Err(Fault::Absent);
        }
        Ok(self.record.clone())
    }

    /// The record as it is, for the checks (no fault).
    pub const fn peek(&self) -> Option<&R> {
        self.record.as_ref()
    }

    /// Another writer than a tab of this version (another SDK version, `removeItem`):
    /// the key holds `record` now, whatever the faults.
    pub fn set(&mut self, record: Option<R>) {
        self.record = record;
        self.writes += 1;
    }

    /// `setItem`.
    pub fn write(&mut self, record: R) -> Result<(), Fault> {
        if self.absent {
            return Err(Fault::Absent);
        }
        if self.full {
            return Err(Fault::Full);
        }
        self.record = Some(record);
        self.writes += 1;
        Ok(())
    }
}
