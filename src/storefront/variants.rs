//! Variant selection: from a product and a (partial) selection of option
//! values, the variant they name, and for every option value whether a
//! variant with it exists and whether one is in stock given the *other*
//! selections (the matrix hydrogen-react's `getProductOptions` gives).
//!
//! Options and their values come in `position` order (ties keep the
//! product's order). An option that is not selected matches any value, so a
//! value "exists" when some variant has it together with the values selected
//! for the other options, and is "available" when one of those variants is in
//! stock ([`in_stock`]). A selection names a variant only when every option is
//! selected; a product without options names its first variant.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use super::input::Product;
use crate::model::{StockStatus, Variant};

/// Option name to option value, e.g. `{"Size": "M", "Color": "Red"}`.
pub type OptionSelection = crate::strmap::StrMap;

/// One value of one option, given the selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionValueAvailability {
    pub value: String,
    /// This value is the one selected for its option.
    pub selected: bool,
    /// Some variant has this value and the values selected for the other options.
    pub exists: bool,
    /// …and one such variant is in stock.
    pub available: bool,
    /// The variant [`Self::selection`] names, if it names one.
    pub variant_id: Option<String>,
    /// The selection with this value chosen for its option.
    pub selection: OptionSelection,
}

/// One option with the state of each of its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionAvailability {
    pub name: String,
    pub values: Vec<OptionValueAvailability>,
}

/// What [`product_options`] gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionMatrix {
    /// The selection the matrix was computed for.
    pub selection: OptionSelection,
    /// Every option of the product, in `position` order.
    pub options: Vec<OptionAvailability>,
    /// The variant the selection names (every option selected), else `None`.
    pub selected_variant: Option<Variant>,
    /// The first variant (in the product's order) that is in stock.
    pub first_available_variant: Option<Variant>,
}

/// A variant can be bought: `IN_STOCK` with a positive quantity.
#[must_use]
pub fn in_stock(v: &Variant) -> bool {
    v.stock_status == StockStatus::InStock && v.stock_quantity > 0
}

/// `items` ordered by `key`, ties kept in order.
pub(crate) fn by_position<T>(items: &[T], key: fn(&T) -> u32) -> Vec<&T> {
    let order = crate::sorted_indices(items.len(), &|a, b| key(&items[a]).cmp(&key(&items[b])));
    order.into_iter().map(|i| &items[i]).collect()
}

/// `v` has every selected value (but `except`'s).
fn agrees(v: &Variant, selection: &OptionSelection, except: Option<&str>) -> bool {
    selection.iter().all(|(k, want)| Some(k.as_str()) == except || v.attributes.get(k) == Some(want))
}

/// Every key of `selection` names an option of `product`, every value one of its values.
fn check_selection(product: &Product, selection: &OptionSelection) -> Result<()> {
    for (name, value) in selection {
        let Some(opt) = product.options.iter().find(|o| &o.name == name) else {
            let names: Vec<String> = product.options.iter().map(|o| format!("{:?}", o.name)).collect();
            let known = if names.is_empty() { "it has no options".to_owned() } else { format!("its options: {}", names.join(", ")) };
            return Err(Error::invalid_argument(format!("selection: product {:?} has no option {name:?} ({known})", product.slug)));
        };
        if !opt.values.iter().any(|v| &v.value == value) {
            return Err(Error::invalid_argument(format!("selection.{name}: {value:?} is not a value of option {name:?} of product {:?}", product.slug)));
        }
    }
    Ok(())
}

/// The variant a checked selection names: every option selected and a variant
/// that has each selected value (the first such).
fn named<'p>(product: &'p Product, selection: &OptionSelection) -> Option<&'p Variant> {
    if selection.len() < product.options.len() {
        return None;
    }
    product.variants.iter().find(|v| agrees(v, selection, None))
}

/// The matrix of option values for `selection` (see the module docs).
///
/// # Errors
/// `invalid_argument` when `selection` names an option the product does not
/// have, or a value its option does not have.
pub fn product_options(product: &Product, selection: &OptionSelection) -> Result<OptionMatrix> {
    check_selection(product, selection)?;
    let options = by_position(&product.options, |o| o.position)
        .into_iter()
        .map(|opt| {
            let values = by_position(&opt.values, |v| v.position)
                .into_iter()
                .map(|ov| {
                    let with = || {
                        product
                            .variants
                            .iter()
                            .filter(|v| v.attributes.get(&opt.name) == Some(&ov.value) && agrees(v, selection, Some(&opt.name)))
                    };
                    let mut next = selection.clone();
                    next.insert(opt.name.clone(), ov.value.clone());
                    OptionValueAvailability {
                        value: ov.value.clone(),
                        selected: selection.get(&opt.name) == Some(&ov.value),
                        exists: with().next().is_some(),
                        available: with().any(in_stock),
                        variant_id: named(product, &next).map(|v| v.id.clone()),
                        selection: next,
                    }
                })
                .collect();
            OptionAvailability { name: opt.name.clone(), values }
        })
        .collect();
    Ok(OptionMatrix {
        selection: selection.clone(),
        options,
        selected_variant: named(product, selection).cloned(),
        first_available_variant: product.variants.iter().find(|v| in_stock(v)).cloned(),
    })
}

/// The selection a product page starts with: that of the first variant in stock
/// ([`in_stock`]), else of the first variant, else nothing selected. With it,
/// [`product_options`] names a variant the buyer can add at once.
#[must_use]
pub fn default_selection(product: &Product) -> OptionSelection {
    let first = product.variants.iter().find(|v| in_stock(v)).or_else(|| product.variants.first());
    first.and_then(|v| variant_selection(product, &v.id).ok()).unwrap_or_default()
}

/// The selection variant `variant_id` corresponds to: its value of each of the
/// product's options (attributes that are not options are left out).
///
/// # Errors
/// `invalid_argument` when the product has no variant `variant_id`.
pub fn variant_selection(product: &Product, variant_id: &str) -> Result<OptionSelection> {
    let Some(v) = product.variants.iter().find(|v| v.id == variant_id) else {
        return Err(Error::invalid_argument(format!("variantId: product {:?} has no variant {variant_id:?}", product.slug)));
    };
    let mut selection = OptionSelection::new();
    for o in &product.options {
        if let Some(val) = v.attributes.get(&o.name) {
            selection.insert(o.name.clone(), val.clone());
        }
    }
    Ok(selection)
}
