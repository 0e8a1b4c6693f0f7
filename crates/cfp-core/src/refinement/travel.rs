//! Predicates that travel.
//!
//! A predicate learned in one method is often what a sibling method needs too: every
//! method of a class that takes `this.lock` and releases it later needs
//! `this.lock = $1`, every method with a `held` flag needs `held`. Learned one method at a
//! time, each costs a counterexample, and the iterations grow with the number of methods.
//!
//! After a refinement, each predicate of Ψ is proposed, once per *shape*, to every other
//! method in which the same symbols exist and are used: locals and parameters by name
//! and sort, a field of the learning method's own class (`C.f`) as the same-named field
//! of the target's class (`C'.f`), globals as they are. A predicate that compares the
//! receiver itself (`this = $1`, not one of its fields) goes only to the methods of the
//! learning class's hierarchy: the receiver of an unrelated class is never that object. The target tracks it at every
//! location (method scope). A predicate over globals alone does not travel (it would go
//! everywhere), nor one over SSA versions, entry values or the lowering's temporaries
//! (`%t1` of one method has nothing to do with `%t1` of another), nor anything but a
//! single comparison (a path's conjunction describes that path's states, not a sibling's).
//!
//! Adding predicates only refines the abstraction (Refine keeps every state satisfiable
//! by some cube and drops only edges that are unsatisfiable), so travelling is sound
//! whatever it proposes; it costs states, which is why a target must *use* every
//! non-global symbol of the predicate, and why a shape travels once.

use crate::encode::{unversion, Encoder, ENTRY_SUFFIX};
use crate::ir::{Edge, Program};
use crate::refine::Psi;
use cfp_smt::{Op, Sort, Term, TermKind};
use std::collections::{BTreeMap, BTreeSet};

/// Which predicates travelled already, and what each method uses.
#[derive(Clone, Debug, Default)]
pub struct Travel {
    /// Shapes proposed already (the predicate with the learning class's fields named
    /// `<this>.f`).
    done: BTreeSet<String>,
    /// Per method, the state symbols its edges read or write (plain names).
    uses: Vec<BTreeSet<String>>,
}

/// A field symbol of class `class`: its simple name and sort.
fn own_field<'a>(
    enc: &Encoder<'_>,
    program: &'a Program,
    class: crate::ir::ClassId,
    symbol: &str,
) -> Option<&'a crate::ir::FieldDef> {
    program
        .fields
        .iter()
        .find(|f| f.class == class && enc.symbols().field(f.id).is_ok_and(|(n, _)| n == symbol))
}

/// The receiver's name in every instance method.
const THIS: &str = "this";

/// Whether `t` mentions the receiver other than as the object of one of the learning
/// class's own fields (`own`, by symbol).
fn bare_this(t: &Term, own: &BTreeMap<&str, &crate::ir::FieldDef>) -> bool {
    match t.kind() {
        TermKind::Var(n, _) => n == THIS,
        TermKind::App(Op::Select, args) => match args.as_slice() {
            [arr, obj]
                if matches!(arr.kind(), TermKind::Var(a, _) if own.contains_key(a.as_str()))
                    && matches!(obj.kind(), TermKind::Var(o, _) if o == THIS) =>
            {
                false
            }
            _ => args.iter().any(|a| bare_this(a, own)),
        },
        TermKind::App(_, args) | TermKind::Uf(_, args, _) => args.iter().any(|a| bare_this(a, own)),
        TermKind::Quant(_, _, body) => bare_this(body, own),
        TermKind::Bool(_) | TermKind::Int(_) => false,
    }
}

/// Whether `a` and `b` are one class or one extends the other.
fn same_hierarchy(
    program: &Program,
    a: Option<crate::ir::ClassId>,
    b: Option<crate::ir::ClassId>,
) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    let extends = |sub: crate::ir::ClassId, sup: crate::ir::ClassId| {
        let mut at = Some(sub);
        let mut steps = 0;
        while let Some(c) = at {
            if c == sup {
                return true;
            }
            steps += 1;
            if steps > program.classes.len() {
                return false;
            }
            at = program.classes.get(c.index()).and_then(|d| d.superclass);
        }
        false
    };
    extends(a, b) || extends(b, a)
}

/// Whether `atom` is one comparison (or its negation) without a Boolean connective or
/// an `ite` inside: only such a predicate travels. A conjunction learned along one path
/// (wp and Horn produce them) describes that path's states; tracked at every location
/// of another method it splits states the other method never needed split.
fn is_literal(atom: &Term) -> bool {
    fn connective_free(t: &Term) -> bool {
        match t.kind() {
            TermKind::App(Op::And | Op::Or | Op::Implies | Op::Not | Op::Ite, _) => false,
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => args.iter().all(connective_free),
            TermKind::Quant(..) => false,
            _ => true,
        }
    }
    let inner = match atom.kind() {
        TermKind::App(Op::Not, args) if args.len() == 1 => &args[0],
        _ => atom,
    };
    matches!(
        inner.kind(),
        TermKind::App(Op::Eq | Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Distinct, _)
            | TermKind::Var(..)
    ) && connective_free(inner)
}

impl Travel {
    /// The symbols every method of `enc`'s program uses.
    pub fn new(enc: &Encoder<'_>) -> Travel {
        let program = enc.program();
        let uses = program
            .methods
            .iter()
            .map(|cfa| {
                let mut used = BTreeSet::new();
                let Ok(pre) = enc.identity(cfa.id) else {
                    return used;
                };
                let note = |used: &mut BTreeSet<String>, t: &Term| {
                    for (n, _) in t.free_vars() {
                        let base = unversion(&n).unwrap_or(&n).to_string();
                        used.insert(base);
                    }
                };
                for e in cfa.graph.edge_weights() {
                    match e {
                        Edge::Call { args, .. } => {
                            for a in args {
                                if let Ok(t) = enc.expr(cfa.id, a, &pre) {
                                    note(&mut used, &t);
                                }
                            }
                        }
                        other => {
                            let mut post = crate::encode::Names::new();
                            if let Ok(t) = enc.edge_formula(cfa.id, other, &pre, &mut post) {
                                note(&mut used, &t);
                            }
                            for (n, _) in pre.changed_bindings(&post).filter(|(_, t)| t.is_some()) {
                                used.insert(n.to_string());
                            }
                        }
                    }
                }
                used
            })
            .collect();
        Travel {
            done: BTreeSet::new(),
            uses,
        }
    }

    /// The predicates of `psi` (learned at their methods) proposed to the other methods,
    /// at method scope; each shape once per run.
    pub fn propose(&mut self, enc: &Encoder<'_>, psi: &Psi) -> Psi {
        let program = enc.program();
        let symbols = enc.symbols();
        let globals: BTreeSet<&str> = symbols
            .globals()
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(std::iter::once(crate::encode::ALLOC))
            .collect();
        let mut out: Psi = BTreeMap::new();
        for ((m, _), atoms) in psi {
            let Some(cfa) = program.method(*m) else {
                continue;
            };
            for atom in atoms {
                let fv = atom.free_vars();
                if !is_literal(atom)
                    || fv.is_empty()
                    || fv.iter().any(|(n, _)| {
                        unversion(n).is_some()
                            || n.ends_with(ENTRY_SUFFIX)
                            || (n.starts_with('%') && !globals.contains(n.as_str()))
                    })
                    || fv.iter().all(|(n, _)| globals.contains(n.as_str()))
                {
                    continue;
                }
                // The shape: the learning class's own fields by simple name.
                let own: BTreeMap<&str, &crate::ir::FieldDef> = fv
                    .iter()
                    .filter_map(|(n, _)| {
                        let f = own_field(enc, program, cfa.class?, n)?;
                        Some((n.as_str(), f))
                    })
                    .collect();
                let shape = atom
                    .substitute(&|n| {
                        own.get(n)
                            .map(|f| Term::var(format!("<this>.{}", f.name), Sort::Int))
                    })
                    .to_string();
                if !self.done.insert(shape) {
                    continue;
                }
                // `this` of an unrelated class is never the same object: a predicate that
                // compares the receiver itself (not one of its own fields, which are
                // renamed) travels within the learning class's hierarchy only.
                let over_this = bare_this(atom, &own);
                for target in &program.methods {
                    if target.id == *m
                        || target.is_abstract
                        || (over_this && !same_hierarchy(program, cfa.class, target.class))
                    {
                        continue;
                    }
                    let Some(renamed) = self.rename(enc, atom, &fv, &own, target, &globals) else {
                        continue;
                    };
                    for loc in target.graph.node_indices() {
                        let list = out.entry((target.id, loc)).or_default();
                        if !list.contains(&renamed) {
                            list.push(renamed.clone());
                        }
                    }
                }
            }
        }
        out
    }

    /// `atom` in the terms of `target`, when every symbol exists there with its sort and
    /// every non-global one is used there.
    fn rename(
        &self,
        enc: &Encoder<'_>,
        atom: &Term,
        fv: &[(String, Sort)],
        own: &BTreeMap<&str, &crate::ir::FieldDef>,
        target: &crate::ir::MethodCfa,
        globals: &BTreeSet<&str>,
    ) -> Option<Term> {
        let program = enc.program();
        let scope = enc.symbols().scope(target.id).ok()?;
        let used = self.uses.get(target.id.index())?;
        let mut map: BTreeMap<String, String> = BTreeMap::new();
        for (n, s) in fv {
            let to = match own.get(n.as_str()) {
                Some(f) => {
                    let class = target.class?;
                    let g = program
                        .fields
                        .iter()
                        .find(|g| g.class == class && g.name == f.name && g.sort == f.sort)?;
                    enc.symbols().field(g.id).ok()?.0.clone()
                }
                None => n.clone(),
            };
            if !scope.iter().any(|(m, t)| *m == to && t == s) {
                return None;
            }
            let plain = to.strip_suffix(ENTRY_SUFFIX).unwrap_or(&to);
            if !globals.contains(plain) && !used.contains(plain) {
                return None;
            }
            map.insert(n.clone(), to);
        }
        Some(atom.substitute(&|n| {
            let s = fv.iter().find(|(m, _)| m == n).map(|(_, s)| s.clone())?;
            map.get(n).map(|to| Term::var(to.clone(), s))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::lower_ok;
    use crate::trace::tests::method;

    /// The methods `psi`'s proposal reaches with `atom` (by name, sorted).
    fn reached(p: &Program, proposed: &Psi, atom: &Term) -> Vec<String> {
        let mut names: Vec<String> = proposed
            .iter()
            .filter(|(_, atoms)| atoms.contains(atom))
            .filter_map(|((m, _), _)| p.method(*m).map(|c| c.name.clone()))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// A predicate comparing the receiver itself travels within the learning class's
    /// hierarchy only (an unrelated class's `this` is never that object); one over a field
    /// of the receiver travels to every class with a same-named field.
    #[test]
    fn the_receiver_travels_within_its_hierarchy() {
        let src = "import java.util.concurrent.locks.ReentrantLock;\nclass A {\n  ReentrantLock l;\n  void take() { l.lock(); }\n  void give() { l.unlock(); }\n}\nclass B extends A {\n  void again() { l.lock(); }\n}\nclass C {\n  ReentrantLock l;\n  void run() { l.unlock(); }\n}\nclass Main {\n  public static void main(String[] a) { A x = new B(); x.take(); x.give(); new C().run(); }\n}\n";
        let p = lower_ok(src, "wildcard $1 : ReentrantLock;\nS -> ε;\n");
        let enc = Encoder::new(&p);
        let take = method(&p, "A.take");
        let this = Term::var(THIS, Sort::Int);
        let wildcard = Term::var("$1", Sort::Int);
        let field = |class: &str| Term::var(format!("{class}.l"), Sort::array_of(Sort::Int));
        let own = Term::eq(Term::select(field("A"), this.clone()), wildcard.clone());
        let receiver = Term::eq(this.clone(), wildcard.clone());
        let at = p.method(take).map(|c| c.entry).expect("A.take");
        let psi: Psi = BTreeMap::from([((take, at), vec![receiver.clone(), own.clone()])]);
        let proposed = Travel::new(&enc).propose(&enc, &psi);
        assert_eq!(
            reached(&p, &proposed, &receiver),
            ["A.<init>", "A.give", "B.<init>", "B.again"],
            "{proposed:#?}"
        );
        let in_c = Term::eq(Term::select(field("C"), this), wildcard);
        assert_eq!(
            reached(&p, &proposed, &in_c),
            ["C.<init>", "C.run"],
            "{proposed:#?}"
        );
    }
}
