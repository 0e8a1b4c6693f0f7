//! Sharing: the state a link carries, the recording of the latest run, the share panel,
//! and the address bar's fragment.

use super::{Effect, PageState};
use crate::app::share_panel::ShareTexts;
use crate::share::{EmbedOptions, Recording, ShareOptions, ShareState};

impl PageState {
    /// The program text of the latest run (what its trace lines refer to), else the editor's.
    pub fn run_source(&self) -> yew::AttrValue {
        self.log
            .inputs
            .as_ref()
            .map_or_else(|| self.program.clone(), |i| i.program.clone())
    }

    /// The recording of the latest run, if it is complete and the editors still hold its
    /// inputs.
    pub fn current_recording(&self) -> Option<Recording> {
        let result = self.log.result.clone()?;
        (self.log.inputs.as_ref() == Some(&self.inputs()) && !self.log.events.is_empty()).then(
            || Recording {
                events: self.log.events.clone(),
                result,
            },
        )
    }

    /// The state a share link carries.
    pub fn share_state(&self) -> ShareState {
        ShareState {
            program: self.program.to_string(),
            spec: self.spec.to_string(),
            options: ShareOptions {
                max_iterations: self.budget,
                entry: self.entry.entry(),
                harness: self.entry.harness(),
            },
            iteration: self.selected,
            embed: if self.embed {
                self.embed_options.clone()
            } else {
                EmbedOptions::default()
            },
            record: None,
        }
    }

    /// The inputs changed: the address bar's link no longer describes the page.
    pub(super) fn forget_link(&mut self, fx: &mut Vec<Effect>) {
        self.share = None;
        if !self.own_hash.is_empty() && !self.embed {
            self.own_hash.clear();
            fx.push(Effect::SetHash(String::new()));
        }
    }

    /// Opens the share panel and puts the link into the address bar.
    pub(super) fn open_share(&mut self, fx: &mut Vec<Effect>) {
        let texts = ShareTexts::new(
            &self.base,
            &self.share_state(),
            self.current_recording().as_ref(),
            &self.share_title(),
        );
        if let Some(hash) = texts.link.find('#').map(|i| &texts.link[i..]) {
            self.own_hash = hash.to_owned();
            fx.push(Effect::SetHash(hash.to_owned()));
        }
        self.share = Some(texts);
    }
}
