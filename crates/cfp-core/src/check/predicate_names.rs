//! Names for the abstraction's predicates: `p1`, `p2`, … in the order the run first meets
//! them, one name per formula for the whole run. Events and certificates refer to
//! predicates by these names, and define each name once (with its SMT-LIB formula and a
//! readable infix text) in the iteration that introduced it.

use super::types::NamedPredicate;
use cfp_smt::Term;
use std::collections::BTreeMap;

/// The run's predicate names.
#[derive(Debug, Default)]
pub(super) struct PredicateNames {
    /// Formula (macros expanded) → its number.
    numbers: BTreeMap<Term, usize>,
}

impl PredicateNames {
    /// The name of `formula`; when it is new, its definition is pushed onto `introduced`.
    pub(super) fn name(&mut self, formula: &Term, introduced: &mut Vec<NamedPredicate>) -> String {
        let next = self.numbers.len() + 1;
        let number = *self.numbers.entry(formula.clone()).or_insert_with(|| {
            introduced.push(NamedPredicate {
                name: predicate_name(next),
                smt: formula.to_string(),
                text: formula.infix().to_string(),
            });
            next
        });
        predicate_name(number)
    }
}

/// `p<number>`.
fn predicate_name(number: usize) -> String {
    format!("p{number}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cfp_smt::Sort;

    #[test]
    fn one_name_per_formula_defined_once() {
        let mut names = PredicateNames::default();
        let a = Term::eq(Term::var("l", Sort::Int), Term::var("$1", Sort::Int));
        let b = Term::eq(Term::var("l1", Sort::Int), Term::var("$1", Sort::Int));
        let mut introduced = Vec::new();
        assert_eq!(names.name(&a, &mut introduced), "p1");
        assert_eq!(names.name(&b, &mut introduced), "p2");
        assert_eq!(names.name(&a, &mut introduced), "p1");
        assert_eq!(
            introduced,
            vec![
                NamedPredicate {
                    name: "p1".into(),
                    smt: "(= l $1)".into(),
                    text: "l == $1".into()
                },
                NamedPredicate {
                    name: "p2".into(),
                    smt: "(= l1 $1)".into(),
                    text: "l1 == $1".into()
                },
            ]
        );
        let mut later = Vec::new();
        assert_eq!(names.name(&b, &mut later), "p2");
        assert!(
            later.is_empty(),
            "defined in the iteration that introduced it"
        );
    }
}
