//! The `Cart`'s line objects ([`super::cart`]): frozen snapshots, built once per
//! line version and cached, so `totals` and `add` do not touch them; and the
//! array of all of them that `lines` copies and the saved form holds.

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::interop::to_js;
use super::js::get;
use crate::cart::CartLine;

/// The snapshots of a cart's lines, by line index.
pub(super) struct Snapshots {
    /// Frozen line objects by line index, `None` until asked for after a change.
    lines: Vec<Option<JsValue>>,
    /// The array of every snapshot once asked for (`lines` hands out copies),
    /// with the indexes whose snapshot is to be rebuilt.
    array: Option<(Array, Vec<usize>)>,
}

impl Snapshots {
    /// No snapshot yet for `count` lines.
    pub(super) fn new(count: usize) -> Self {
        Self { lines: vec![None; count], array: None }
    }

    /// The cart's lines were replaced from `old` by `new` (restore, another tab,
    /// refresh): snapshots of lines that did not change are kept.
    pub(super) fn replaced(&mut self, old: &[CartLine], new: &[CartLine]) {
        self.array = None;
        let mut old_snaps = core::mem::take(&mut self.lines).into_iter();
        let mut old_lines = old.iter();
        self.lines = new
            .iter()
            .map(|line| {
                // Lines keep their order, so unchanged ones are found walking forward.
                for (o, snap) in old_lines.by_ref().zip(old_snaps.by_ref()) {
                    if o.variant_id == line.variant_id {
                        return if o == line { snap } else { None };
                    }
                }
                None
            })
            .collect();
    }

    /// The line at `index` of a cart of `count` lines changed (or was appended).
    pub(super) fn touched(&mut self, count: usize, index: usize) {
        self.lines.resize(count, None);
        self.lines[index] = None;
        if let Some((array, stale)) = &mut self.array {
            if index as u32 >= array.length() {
                array.push(&JsValue::UNDEFINED);
            }
            stale.push(index);
        }
    }

    /// The line at `index` was removed.
    pub(super) fn removed(&mut self, index: usize) {
        self.lines.remove(index);
        self.array = None;
    }

    /// Every line was removed.
    pub(super) fn cleared(&mut self) {
        self.lines.clear();
        self.array = None;
    }

    /// The frozen snapshot of `lines[index]`.
    pub(super) fn snapshot(&mut self, lines: &[CartLine], index: usize) -> JsValue {
        if let Some(s) = &self.lines[index] {
            return s.clone();
        }
        let line = to_js(&lines[index]).unwrap_or(JsValue::NULL);
        for nested in ["attributes", "image"] {
            let v = get(&line, nested);
            if v.is_object() {
                Object::freeze(v.unchecked_ref::<Object>());
            }
        }
        let line: JsValue = Object::freeze(line.unchecked_ref::<Object>()).into();
        self.lines[index] = Some(line.clone());
        line
    }

    /// The cached array of the snapshot of every one of `lines` (not to be
    /// handed out: `Cart.lines` copies it).
    pub(super) fn array(&mut self, lines: &[CartLine]) -> Array {
        match self.array.take() {
            Some((array, mut stale)) => {
                for i in stale.drain(..) {
                    array.set(i as u32, self.snapshot(lines, i));
                }
                self.array = Some((array.clone(), stale));
                array
            }
            None => {
                let array: Array = (0..lines.len()).map(|i| self.snapshot(lines, i)).collect();
                self.array = Some((array.clone(), Vec::new()));
                array
            }
        }
    }
}
