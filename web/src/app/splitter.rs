//! The resizable split between the editors and the results: a separator the pointer drags
//! and the arrow keys move, setting `--split` (the editors' share of the width, percent) on
//! the layout grid; the choice is kept in local storage.

use super::storage;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Local-storage key of the split.
const SPLIT_KEY: &str = "cfplay.split";

/// Narrowest and widest editor share, percent.
const MIN_PCT: f64 = 25.0;
const MAX_PCT: f64 = 75.0;
/// The default share (the grid's own proportions, 1 : 1.15).
const DEFAULT_PCT: f64 = 46.5;
/// One arrow key press, percent.
const KEY_STEP: f64 = 2.5;

/// `pct` clamped to the allowed range (the default for a non-number).
pub fn clamp_split(pct: f64) -> f64 {
    if pct.is_finite() {
        pct.clamp(MIN_PCT, MAX_PCT)
    } else {
        DEFAULT_PCT
    }
}

/// Set `--split` on the separator's parent (the layout grid).
fn apply(separator: &NodeRef, pct: f64) {
    if let Some(layout) = separator
        .cast::<Element>()
        .and_then(|s| s.parent_element())
        .and_then(|p| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(p).ok())
    {
        let _ = layout
            .style()
            .set_property("--split", &format!("{pct:.1}%"));
    }
}

/// The separator between the two columns.
#[function_component(Splitter)]
pub fn splitter() -> Html {
    let node = use_node_ref();
    let pct = use_state(|| clamp_split(storage::get::<f64>(SPLIT_KEY).unwrap_or(DEFAULT_PCT)));
    let dragging = use_mut_ref(|| false);
    {
        let node = node.clone();
        use_effect_with(*pct, move |p| apply(&node, *p));
    }
    let set = {
        let pct = pct.clone();
        move |p: f64, save: bool| {
            let p = clamp_split(p);
            pct.set(p);
            if save {
                storage::set(SPLIT_KEY, &p);
            }
        }
    };
    let onpointerdown = {
        let dragging = dragging.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(t) = e.target_dyn_into::<Element>() {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
            *dragging.borrow_mut() = true;
            e.prevent_default();
        })
    };
    let onpointermove = {
        let (dragging, node, set) = (dragging.clone(), node.clone(), set.clone());
        Callback::from(move |e: PointerEvent| {
            if !*dragging.borrow() {
                return;
            }
            let Some(layout) = node.cast::<Element>().and_then(|s| s.parent_element()) else {
                return;
            };
            let rect = layout.get_bounding_client_rect();
            if rect.width() > 0.0 {
                set(
                    (f64::from(e.client_x()) - rect.left()) / rect.width() * 100.0,
                    false,
                );
            }
        })
    };
    let onpointerup = {
        let (dragging, pct) = (dragging.clone(), pct.clone());
        Callback::from(move |_: PointerEvent| {
            if std::mem::replace(&mut *dragging.borrow_mut(), false) {
                storage::set(SPLIT_KEY, &*pct);
            }
        })
    };
    let onkeydown = {
        let (pct, set) = (pct.clone(), set.clone());
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowLeft" => *pct - KEY_STEP,
                "ArrowRight" => *pct + KEY_STEP,
                "Home" => MIN_PCT,
                "End" => MAX_PCT,
                "Enter" => DEFAULT_PCT,
                _ => return,
            };
            e.prevent_default();
            set(to, true);
        })
    };
    let ondblclick = Callback::from(move |_: MouseEvent| set(DEFAULT_PCT, true));
    html! {
        <div class="splitter" ref={node} role="separator" tabindex="0" data-testid="splitter"
            aria-orientation="vertical" aria-label="resize the editors and the results"
            aria-valuemin={MIN_PCT.to_string()} aria-valuemax={MAX_PCT.to_string()}
            aria-valuenow={format!("{:.0}", *pct)}
            title="drag (or ←/→) to resize; double-click to reset"
            {onpointerdown} {onpointermove} {onpointerup} {onkeydown} {ondblclick} />
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_stays_in_range() {
        assert_eq!(clamp_split(10.0), MIN_PCT);
        assert_eq!(clamp_split(90.0), MAX_PCT);
        assert_eq!(clamp_split(50.0), 50.0);
        assert_eq!(clamp_split(f64::NAN), DEFAULT_PCT);
    }
}
