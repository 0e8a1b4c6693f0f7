//! The page's transitions, natively: runs, cancels, steps, replays and links, message by
//! message, with the effects each one asks for.

use super::*;
use crate::app::examples;
use crate::app::messages::{event_iteration, VerdictName};
use crate::app::page_url::PageParams;
use crate::app::startup::{Draft, Startup};
use crate::protocol::CrashCause;
use crate::share::{Recording, ShareOptions, ShareState};

/// A recording of 3 iterations (a violation found at the third, by the refinement: made with
/// `--no-hunt`).
const BUG: &str = include_str!("../../../../tests/fixtures/paper-fig2-bug.refinement.record.json");

fn page(isolated: bool) -> Startup {
    Startup {
        params: PageParams::default(),
        state: None,
        hash: String::new(),
        base: "https://example.org/play/".into(),
        isolated,
        errors: Vec::new(),
        notices: Vec::new(),
        draft: None,
    }
}

/// The recording's events, its result, and a share state holding its inputs.
fn bug_run() -> (Vec<Event>, RunResult, ShareState) {
    let loaded = startup::record_from_file("bug.json", BUG).expect("valid recording");
    let v: Value = serde_json::from_str(BUG).expect("json");
    let state = ShareState {
        program: loaded.inputs.program.clone(),
        spec: loaded.inputs.spec.clone(),
        options: ShareOptions::default(),
        iteration: None,
        embed: EmbedOptions::default(),
        record: Some(Recording {
            events: v["events"].as_array().cloned().unwrap_or_default(),
            result: v["result"].clone(),
        }),
    };
    (loaded.run.events, loaded.run.result, state)
}

/// A live page whose worker is up with Z3 ready.
fn live_page(startup: Startup) -> PageState {
    let mut s = PageState::new(examples::gallery(), startup);
    let fx = s.reduce(Msg::Started);
    assert!(fx.contains(&Effect::SpawnWorkerAfterPaint), "{fx:?}");
    s.reduce(Msg::SpawnWorker);
    s.reduce(Msg::Worker(Ok(FromWorker::Status {
        z3: Z3Status::Ready,
        detail: String::new(),
    })));
    s
}

/// The id of the run the effects start, and its mode.
fn started_run(fx: &[Effect]) -> (u32, RunMode) {
    fx.iter()
        .find_map(|e| match e {
            Effect::Post(ToWorker::Run { run, mode, .. }) => Some((*run, *mode)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no run started: {fx:?}"))
}

fn event(run: u32, e: &Event) -> Msg {
    Msg::Worker(Ok(FromWorker::Event {
        run,
        event: Box::new(e.clone()),
    }))
}

/// The events of iteration `i` (the ones carrying it), in order.
fn iteration(events: &[Event], i: u32) -> Vec<Event> {
    events
        .iter()
        .filter(|e| event_iteration(e) == Some(i))
        .cloned()
        .collect()
}

/// Ticks until every queued event is shown.
fn play_out(s: &mut PageState) {
    while !s.playback.queue.is_empty() {
        s.reduce(Msg::Tick(0.0));
    }
}

fn instant(s: &mut PageState) {
    s.reduce(Msg::Speed(0));
}

#[test]
fn cancel_during_step_mode_stops_at_the_click() {
    let (events, _, _) = bug_run();
    let mut s = live_page(page(true));
    instant(&mut s);
    let fx = s.reduce(Msg::Step);
    let (run, mode) = started_run(&fx);
    assert_eq!(mode, RunMode::Step);
    assert!(!s.can_step(), "the first iteration is being computed");
    for e in &iteration(&events, 1) {
        s.reduce(event(run, e));
    }
    assert!(s.can_step(), "iteration 1 ended with `refined`");
    assert_eq!(s.model.iterations.len(), 1);
    assert_eq!(s.reduce(Msg::Step), vec![Effect::Post(ToWorker::Step)]);
    assert!(!s.can_step());
    let fx = s.reduce(Msg::Cancel);
    assert_eq!(
        fx,
        vec![Effect::Post(ToWorker::Cancel), Effect::ArmCancelTimer]
    );
    assert_eq!(s.phase_text(), "cancelling…");
    assert!(!s.can_step() && s.run_button().disabled);
    // What the worker had already computed of iteration 2 arrives after the click.
    for e in &iteration(&events, 2) {
        assert_eq!(s.reduce(event(run, e)), vec![Effect::NoRender]);
    }
    assert_eq!(s.model.iterations.len(), 1, "the view froze at the click");
    let fx = s.reduce(Msg::Worker(Ok(FromWorker::Cancelled { run })));
    assert_eq!(fx, vec![Effect::DisarmCancelTimer]);
    assert_eq!(s.lifecycle, Lifecycle::Idle);
    assert_eq!(s.phase_text(), "cancelled");
    assert!(s.can_step() && !s.run_button().disabled && !s.busy());
    // The grace timer, if it still fired, changes nothing.
    assert_eq!(s.reduce(Msg::CancelTimeout), vec![Effect::NoRender]);
    assert!(s.result.is_none());
}

#[test]
fn a_live_run_shows_its_progress_and_its_time_limit() {
    let (events, _, _) = bug_run();
    let mut s = live_page(page(true));
    instant(&mut s);
    s.reduce(Msg::TimeLimit(Some(30)));
    let fx = s.reduce(Msg::Run);
    let (run, _) = started_run(&fx);
    let limit = fx.iter().find_map(|e| match e {
        Effect::Post(ToWorker::Run { options, .. }) => Some(options.timeout_ms),
        _ => None,
    });
    assert_eq!(limit, Some(Some(30_000)), "the limit goes to the worker");
    // Step mode waits for the user: no limit there.
    let mut stepping = live_page(page(true));
    let fx = stepping.reduce(Msg::Step);
    let limit = fx.iter().find_map(|e| match e {
        Effect::Post(ToWorker::Run { options, .. }) => Some(options.timeout_ms),
        _ => None,
    });
    assert_eq!(limit, Some(None));
    stepping.reduce(Msg::Tick(0.0));
    assert!(!stepping
        .reduce(Msg::Tick(1_000_000.0))
        .contains(&Effect::RestartWorker));
    s.reduce(Msg::Tick(1000.0));
    for e in &iteration(&events, 1) {
        s.reduce(event(run, e));
    }
    s.reduce(event(run, &iteration(&events, 2)[0]));
    assert_ne!(
        s.reduce(Msg::Tick(3500.0)),
        vec![Effect::NoRender],
        "the clock moved"
    );
    let preds: usize = events
        .iter()
        .filter_map(|e| match e {
            Event::Refined {
                iteration: 1,
                predicates_added,
                ..
            } => Some(*predicates_added),
            _ => None,
        })
        .sum();
    assert_eq!(
        s.phase_text(),
        format!("running… iteration 2 · ② checking L(G_P) ⊆ L(spec) · 2.5 s of 30 s · {preds} predicate(s)")
    );
    // The same tenth of a second: nothing to redraw.
    assert_eq!(s.reduce(Msg::Tick(3520.0)), vec![Effect::NoRender]);
}

#[test]
fn a_run_that_hangs_past_its_time_limit_is_ended_by_the_page() {
    let mut s = live_page(page(true));
    s.reduce(Msg::TimeLimit(Some(10)));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    s.reduce(Msg::Tick(0.0));
    assert_ne!(s.reduce(Msg::Tick(19_000.0)), vec![Effect::RestartWorker]);
    assert!(s.is_current(run), "within the grace period");
    let fx = s.reduce(Msg::Tick(20_500.0));
    assert!(fx.contains(&Effect::RestartWorker), "{fx:?}");
    assert!(!s.busy());
    let r = s.result.clone().expect("unknown");
    assert_eq!(r.reason.as_deref(), Some("timeout of 10 s reached"));
}

#[test]
fn a_cancel_the_worker_does_not_answer_restarts_it() {
    let mut s = live_page(page(true));
    let (run, _) = started_run(&s.reduce(Msg::Step));
    s.reduce(Msg::Cancel);
    assert_eq!(s.reduce(Msg::CancelTimeout), vec![Effect::RestartWorker]);
    assert_eq!(s.lifecycle, Lifecycle::Idle);
    assert_eq!(s.phase_text(), "cancelled (worker restarted)");
    assert_eq!(s.z3, Some(Z3Status::Loading));
    // The old worker is gone; anything of its run still queued is dropped.
    let late = s.reduce(Msg::Worker(Ok(FromWorker::Cancelled { run })));
    assert_eq!(late, vec![Effect::NoRender]);
}

#[test]
fn a_late_cancelled_after_a_new_run_is_dropped() {
    let (events, result, _) = bug_run();
    let mut s = live_page(page(true));
    instant(&mut s);
    let (old, _) = started_run(&s.reduce(Msg::Step));
    for e in &iteration(&events, 1) {
        s.reduce(event(old, e));
    }
    // Run while stepping: the worker cancels the step-mode run first.
    let (new, mode) = started_run(&s.reduce(Msg::Run));
    assert_eq!(mode, RunMode::Run);
    assert_ne!(new, old);
    assert!(s.model.iterations.is_empty(), "the new run starts empty");
    // The old run's last events and its `cancelled` were in flight.
    for e in &iteration(&events, 2) {
        assert_eq!(s.reduce(event(old, e)), vec![Effect::NoRender]);
    }
    let fx = s.reduce(Msg::Worker(Ok(FromWorker::Cancelled { run: old })));
    assert_eq!(fx, vec![Effect::NoRender]);
    assert_eq!(
        s.lifecycle,
        Lifecycle::Live {
            run: new,
            stage: LiveStage::Running
        }
    );
    for e in &events {
        s.reduce(event(new, e));
    }
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run: new,
        result: Box::new(result),
    })));
    assert_eq!(s.lifecycle, Lifecycle::Idle);
    assert_eq!(s.model.iterations.len(), 3);
    let r = s.result.as_ref().expect("a verdict");
    assert_eq!(r.verdict, VerdictName::Violation);
    assert_eq!(s.shown_count(), 3);
    // The finished run is a recording for share links.
    assert_eq!(
        s.current_recording().map(|r| r.events.len()),
        Some(events.len())
    );
}

/// A page opened from a link selecting `iteration`: runs live, or replays `record`.
fn opened_link(iteration: u32, isolated: bool) -> (PageState, Vec<Effect>) {
    let (_, _, mut state) = bug_run();
    state.iteration = Some(iteration);
    if isolated {
        state.record = None;
    }
    let mut s = PageState::new(
        examples::gallery(),
        Startup {
            state: Some(state),
            ..page(isolated)
        },
    );
    let mut fx = s.reduce(Msg::Started);
    if isolated {
        fx = s.reduce(Msg::SpawnWorker);
    }
    (s, fx)
}

#[test]
fn a_link_landing_past_the_last_iteration_shows_the_last_one() {
    let (events, result, _) = bug_run();
    let (mut s, fx) = opened_link(9, true);
    let (run, mode) = started_run(&fx);
    assert_eq!(mode, RunMode::Run, "a link runs at once");
    for e in &events {
        s.reduce(event(run, e));
    }
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run,
        result: Box::new(result.clone()),
    })));
    play_out(&mut s);
    assert_eq!(s.selected, None);
    assert_eq!(s.shown_iteration(), Some(3));
    assert!(
        s.notices
            .iter()
            .any(|n| n == "the link selects iteration 9, but this run has 3; showing the last one"),
        "{:?}",
        s.notices
    );
    // Within the run, the link's iteration is selected once the run is done.
    let (mut s, fx) = opened_link(2, true);
    let (run, _) = started_run(&fx);
    for e in &events {
        s.reduce(event(run, e));
    }
    assert_eq!(s.selected, None, "not before the verdict");
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run,
        result: Box::new(result),
    })));
    assert_eq!(s.selected, Some(2));
    assert!(s.notices.is_empty(), "{:?}", s.notices);
    // The banner says the views show an earlier iteration than the verdict's.
    assert_eq!(
        s.verdict_note().as_deref(),
        Some("final: violation — showing iteration 2 of 3")
    );
    s.reduce(Msg::Select(None));
    play_out(&mut s);
    assert_eq!(s.verdict_note(), None);
}

#[test]
fn a_replayed_link_lands_too() {
    let (mut s, _) = opened_link(9, false);
    assert_eq!(s.mode, Mode::Replay);
    for _ in 0..100 {
        s.reduce(Msg::Tick(0.0));
    }
    assert_eq!(s.lifecycle, Lifecycle::Idle);
    assert_eq!(s.shown_iteration(), Some(3));
    assert_eq!(s.notices.len(), 1, "{:?}", s.notices);
    let (mut s, _) = opened_link(1, false);
    while s.busy() {
        s.reduce(Msg::Tick(0.0));
    }
    assert_eq!(s.selected, Some(1));
}

/// An embed replaying the recording, `start=K`, not autoplaying.
fn embed_at(start: u32) -> PageState {
    let (_, _, state) = bug_run();
    let mut s = PageState::new(
        examples::gallery(),
        Startup {
            state: Some(state),
            params: PageParams {
                embed: true,
                start_at: Some(start),
                ..PageParams::default()
            },
            ..page(false)
        },
    );
    let fx = s.reduce(Msg::Started);
    assert!(
        fx.contains(&Effect::StartTicker {
            period_ms: EMBED_SPEED_MS
        }),
        "{fx:?}"
    );
    s
}

#[test]
fn replay_fast_forwards_to_start_and_waits_there() {
    let (events, _, _) = bug_run();
    let mut s = embed_at(2);
    assert!(matches!(s.lifecycle, Lifecycle::Replaying { .. }));
    assert_eq!(s.model.iterations.len(), 2, "iterations 1 and 2 at once");
    assert_eq!(s.playback.queue.len(), iteration(&events, 3).len() + 1);
    assert!(s.playback.paused, "paused at `start` without autoplay");
    assert_eq!(s.phase_text(), "replay paused");
    assert_eq!(s.reduce(Msg::Tick(0.0)), vec![Effect::NoRender]);
    s.reduce(Msg::TogglePause);
    let mut ticks = 0;
    while s.busy() {
        s.reduce(Msg::Tick(0.0));
        ticks += 1;
    }
    assert_eq!(ticks, iteration(&events, 3).len() + 1, "one event per tick");
    assert_eq!(s.model.iterations.len(), 3);
    assert_eq!(
        s.result.as_ref().map(|r| r.verdict),
        Some(VerdictName::Violation)
    );
}

#[test]
fn replay_start_past_the_end_shows_the_end() {
    let s = embed_at(10);
    assert_eq!(s.lifecycle, Lifecycle::Idle, "nothing left to play");
    assert_eq!(s.model.iterations.len(), 3);
    assert_eq!(s.result.as_ref().map(|r| r.iterations), Some(3));
}

#[test]
fn a_cancelled_replay_stops_and_replays_again() {
    let mut s = embed_at(1);
    s.reduce(Msg::TogglePause);
    s.reduce(Msg::Tick(0.0));
    assert!(s.busy());
    assert_eq!(s.reduce(Msg::Cancel), Vec::new());
    assert_eq!(s.phase_text(), "replay stopped");
    assert!(s.playback.queue.is_empty() && s.result.is_none());
    assert!(!s.run_button().disabled, "Replay again");
    s.reduce(Msg::Run);
    assert!(matches!(s.lifecycle, Lifecycle::Replaying { .. }));
}

#[test]
fn bad_input_ends_the_run_with_diagnostics() {
    let mut s = live_page(page(true));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    let items = vec![Diagnostic {
        file: InputFile::Spec,
        line: 2,
        col: 5,
        message: "unknown nonterminal".into(),
        severity: crate::protocol::DiagSeverity::Error,
    }];
    // Another run's diagnostics are not this one's.
    s.reduce(Msg::Worker(Ok(FromWorker::Diagnostics {
        run: run + 7,
        items: items.clone(),
    })));
    assert!(s.busy() && s.diagnostics.is_empty());
    s.reduce(Msg::Worker(Ok(FromWorker::Diagnostics { run, items })));
    assert!(!s.busy());
    assert_eq!(s.diagnostics.len(), 1);
    assert_eq!(s.phase_text(), "the input has errors");
}

#[test]
fn a_crash_ends_the_run_and_replaces_the_worker() {
    let (events, _, _) = bug_run();
    let mut s = live_page(page(true));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    let fx = s.reduce(Msg::Worker(Ok(FromWorker::Crashed {
        message: "the checker crashed (a bug): boom".into(),
        cause: CrashCause::Panic,
    })));
    assert_eq!(fx, vec![Effect::RestartWorker]);
    assert_eq!(s.lifecycle, Lifecycle::Idle);
    assert_eq!(s.errors.len(), 1, "a panic is a bug: shown as an error");
    let r = s.result.clone().expect("the run ends with a verdict");
    assert_eq!(r.verdict, VerdictName::Unknown);
    assert_eq!(
        r.reason.as_deref(),
        Some("internal error: the checker crashed (a bug): boom")
    );
    let finished = events.last().expect("events");
    assert_eq!(s.reduce(event(run, finished)), vec![Effect::NoRender]);
    // A worker error while idle (Z3 failed to load) does not loop restarts.
    assert_eq!(
        s.reduce(Msg::Worker(Err("worker error: x".into()))),
        Vec::new()
    );
    // Posting failed: the run cannot start, and says why.
    let (run, _) = started_run(&s.reduce(Msg::Run));
    s.reduce(Msg::WorkerFailed("postMessage failed: x".into()));
    assert!(!s.busy() && !s.worker_up);
    assert!(!s.is_current(run));
}

#[test]
fn out_of_memory_ends_the_run_unknown_and_the_next_run_works() {
    let (events, result, _) = bug_run();
    let mut s = live_page(page(true));
    instant(&mut s);
    let (run, _) = started_run(&s.reduce(Msg::Run));
    for e in iteration(&events, 1)
        .iter()
        .chain(&iteration(&events, 2)[..1])
    {
        s.reduce(event(run, e));
    }
    let fx = s.reduce(Msg::Worker(Ok(FromWorker::Crashed {
        message: "the solver ran out of memory (Z3 had allocated 1530 MB; its limit is 1536 MB)"
            .into(),
        cause: CrashCause::OutOfMemory,
    })));
    assert_eq!(fx, vec![Effect::RestartWorker]);
    let r = s.result.clone().expect("unknown");
    assert_eq!(r.verdict, VerdictName::Unknown);
    assert_eq!(
        r.reason.as_deref(),
        Some("the solver ran out of memory in iteration 2")
    );
    assert_eq!(r.reason_kind, Some(cfp_core::check::ReasonKind::Memory));
    assert!(s.errors.is_empty(), "not a bug: the verdict says it");
    assert_eq!(s.phase_text(), "done");
    assert!(
        !s.run_button().disabled && s.can_step(),
        "the page is usable"
    );
    assert!(s.current_recording().is_none(), "not a recording");
    // The new worker loads Z3; the next run works.
    s.reduce(Msg::Worker(Ok(FromWorker::Status {
        z3: Z3Status::Ready,
        detail: String::new(),
    })));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    for e in &events {
        s.reduce(event(run, e));
    }
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run,
        result: Box::new(result),
    })));
    assert_eq!(
        s.result.as_ref().map(|r| r.verdict),
        Some(VerdictName::Violation)
    );
}

#[test]
fn a_worker_that_crashes_before_z3_is_ready_is_not_restarted_forever() {
    let mut s = live_page(page(true));
    let crash = || {
        Msg::Worker(Ok(FromWorker::Crashed {
            message: "the solver failed: Aborted()".into(),
            cause: CrashCause::Solver,
        }))
    };
    assert_eq!(s.reduce(crash()), vec![Effect::RestartWorker]);
    assert_eq!(s.reduce(crash()), Vec::new(), "no second restart");
    assert_eq!(s.z3, Some(Z3Status::Error));
    assert!(s.errors.iter().any(|e| e.contains("reload the page")));
}

#[test]
fn editing_forgets_the_link_and_lints_later() {
    let mut s = live_page(Startup {
        hash: "#v1.abc".into(),
        ..page(true)
    });
    let fx = s.reduce(Msg::Program("class A {}".into()));
    assert_eq!(
        fx,
        vec![Effect::SetHash(String::new()), Effect::ScheduleLint]
    );
    // The page removed the fragment itself: its `hashchange` is not a new link.
    assert_eq!(
        s.reduce(Msg::HashChanged(String::new())),
        vec![Effect::NoRender]
    );
    assert_eq!(
        s.reduce(Msg::HashChanged("#v1.other".into())),
        vec![Effect::Reload]
    );
    s.reduce(Msg::Spec("S -> ;".into()));
    s.reduce(Msg::Lint);
    assert!(!s.diagnostics.is_empty(), "the spec does not parse");
    // A spec missing a `;` between rules is checked, and says so (a warning at the line).
    let ex = &s.examples[0];
    let (program, spec) = (ex.program.to_owned(), ex.spec.replacen(';', "", 2));
    s.reduce(Msg::Program(program));
    s.reduce(Msg::Spec(spec));
    s.reduce(Msg::Lint);
    assert!(
        s.diagnostics
            .iter()
            .any(|d| d.severity == crate::protocol::DiagSeverity::Warning
                && d.message.starts_with("missing `;`")),
        "{:?}",
        s.diagnostics
    );
}

#[test]
fn edits_survive_reloads_and_an_example_over_them_can_be_undone() {
    let mine = Draft {
        program: "class Bank {\n  // my edits\n}\n".into(),
        spec: "S -> eps;".into(),
    };
    let mut s = live_page(Startup {
        draft: Some(mine.clone()),
        ..page(true)
    });
    assert_eq!(s.draft(), mine, "the last visit's edits are back");
    assert_eq!(s.example_id, "", "the selector says edited");
    assert_eq!(s.share_title(), "cfplay: class Bank");
    // Editing is saved (with the debounced lint), and an edited example stops being one.
    let first = s.examples[0].entry.id.clone();
    s.reduce(Msg::Example(first.clone()));
    assert_eq!(s.example_id, first);
    assert_eq!(s.undo.as_ref(), Some(&mine), "the replaced edits are kept");
    s.reduce(Msg::UndoExample);
    assert_eq!(s.draft(), mine);
    assert!(s.undo.is_none());
    s.reduce(Msg::Example(first.clone()));
    s.reduce(Msg::Program(format!("{}\n// changed", s.program)));
    assert_eq!(s.example_id, "");
    assert!(s.undo.is_none(), "an edit drops the undo");
    let fx = s.reduce(Msg::Lint);
    assert!(
        matches!(fx.first(), Some(Effect::SaveDraft(d)) if d.program.ends_with("// changed")),
        "{fx:?}"
    );
    // A link wins over the draft.
    let (_, _, state) = bug_run();
    let s = PageState::new(
        examples::gallery(),
        Startup {
            draft: Some(mine),
            state: Some(state.clone()),
            ..page(true)
        },
    );
    assert_eq!(s.program.as_str(), state.program);
}

#[test]
fn an_edit_after_a_run_marks_it_out_of_date_until_the_text_is_back() {
    let (events, result, _) = bug_run();
    let (mut s, fx) = opened_link(3, true);
    let (run, _) = started_run(&fx);
    for e in &events {
        s.reduce(event(run, e));
    }
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run,
        result: Box::new(result),
    })));
    play_out(&mut s);
    assert!(s.violation_summary().is_some());
    assert!(!s.stale(), "the run's own inputs");
    assert!(!s.can_pause(), "nothing left to pause");
    let program = s.program.to_string();
    s.reduce(Msg::Program(format!("{program}\n// edited")));
    assert!(s.stale(), "an edit after the run");
    s.reduce(Msg::Program(program));
    assert!(!s.stale(), "the text is the run's again");
    s.reduce(Msg::Spec("S -> ε;".into()));
    assert!(s.stale(), "a spec edit");
}

#[test]
fn a_program_without_main_is_checked_through_the_chosen_harness_and_links_keep_it() {
    let mut s = live_page(page(true));
    s.reduce(Msg::Program(
        "class Account { void deposit(int n) { } }".into(),
    ));
    s.reduce(Msg::Lint);
    assert_eq!(s.missing_entry(), Some("public-methods"));
    s.reduce(Msg::Entry(EntryChoice::Harness("public-methods".into())));
    assert_eq!(s.missing_entry(), None);
    let fx = s.reduce(Msg::Run);
    let options = fx
        .iter()
        .find_map(|e| match e {
            Effect::Post(ToWorker::Run { options, .. }) => Some(options.clone()),
            _ => None,
        })
        .expect("a run");
    assert_eq!(options.harness.as_deref(), Some("public-methods"));
    assert_eq!(options.entry, None);
    // The link carries the choice, and a page opened from it makes the same one.
    let state = s.share_state();
    assert_eq!(state.options.harness.as_deref(), Some("public-methods"));
    let opened = PageState::new(
        examples::gallery(),
        Startup {
            state: Some(state),
            ..page(true)
        },
    );
    assert_eq!(opened.entry, EntryChoice::Harness("public-methods".into()));
    // A method as the start.
    s.reduce(Msg::Entry(EntryChoice::Method("Account.deposit".into())));
    assert_eq!(
        s.share_state().options.entry.as_deref(),
        Some("Account.deposit")
    );
    assert_eq!(s.share_state().options.harness, None);
}

#[test]
fn the_verdict_shows_when_the_animation_reaches_it() {
    let (events, result, _) = bug_run();
    let mut s = live_page(page(true));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    for e in &events {
        s.reduce(event(run, e));
    }
    s.reduce(Msg::Worker(Ok(FromWorker::Done {
        run,
        result: Box::new(result),
    })));
    assert!(s.result.is_some());
    assert!(!s.playback.queue.is_empty(), "events left to play");
    assert!(
        s.shown_result().is_none(),
        "the banner ran ahead of the panels"
    );
    play_out(&mut s);
    assert!(s.shown_result().is_some());
}

#[test]
fn cancel_keeps_the_panels_as_shown() {
    let (events, _, _) = bug_run();
    let mut s = live_page(page(true));
    let (run, _) = started_run(&s.reduce(Msg::Run));
    for e in &events[..events.len() - 1] {
        s.reduce(event(run, e));
    }
    s.reduce(Msg::Tick(0.0));
    let shown = s.model.iterations.len();
    assert!(!s.playback.queue.is_empty());
    s.reduce(Msg::Cancel);
    assert!(
        s.playback.queue.is_empty(),
        "events still to play after Cancel"
    );
    assert_eq!(s.shown_count() as usize, shown);
    s.reduce(Msg::Worker(Ok(FromWorker::Cancelled { run })));
    for _ in 0..20 {
        s.reduce(Msg::Tick(0.0));
    }
    assert_eq!(
        s.model.iterations.len(),
        shown,
        "the panels moved on after Cancel"
    );
}
