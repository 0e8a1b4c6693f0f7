//! The layer-3 certificate (the bound, the machine and each nonterminal's relations) and
//! its independent check.

use super::*;

/// The relations of one nonterminal of G in a certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NonterminalEffects {
    /// The nonterminal of G.
    pub nonterminal: NontermId,
    /// Its antichain of relations (each sorted and minimal).
    pub relations: Vec<Relation>,
}

/// Evidence of a layer-3 proof: the bound, the machine and the invariant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EffectsCertificate {
    /// The bound K (entries longer than K were dropped).
    pub bound: u32,
    /// The machine (ε-free GNF of S and whether ε ∈ L(S)).
    pub machine: Machine,
    /// Anti(A) for every live nonterminal A of G.
    pub effects: Vec<NonterminalEffects>,
}

/// Verify the inductive invariant of an [`EffectsCertificate`] for G (see the module
/// documentation), independently of the saturation: every production of G whose
/// nonterminals are all productive must have its left side and right-side nonterminals
/// claimed, and every bounded composition must be covered; every start relation must
/// accept. The machine itself is checked by the caller (it must be the GNF of S).
pub fn check_invariant(g: &Grammar, cert: &EffectsCertificate) -> Result<(), String> {
    cert.machine.validate()?;
    let k = cert.bound as usize;
    let productive = crate::clean::productive(g);
    let mut claims: Vec<Option<&Vec<Relation>>> = vec![None; g.nonterminals.len()];
    for ne in &cert.effects {
        let slot = claims
            .get_mut(ne.nonterminal.index())
            .ok_or("claim for an unknown nonterminal")?;
        if slot.is_some() {
            return Err(format!(
                "two claims for nonterminal {}",
                g.nonterminal_name(ne.nonterminal)
            ));
        }
        *slot = Some(&ne.relations);
    }
    let is_prod = |n: NontermId| productive.get(n.index()).copied().unwrap_or(false);
    if !is_prod(g.start) {
        return Ok(()); // L(G) is empty
    }
    let Some(start_rels) = claims.get(g.start.index()).copied().flatten() else {
        return Err("no claim for the start symbol".into());
    };
    for (i, r) in start_rels.iter().enumerate() {
        if !cert.machine.accepts(r) {
            return Err(format!("start relation {i} does not accept"));
        }
    }
    let term_rels: Vec<Relation> = g
        .terminals
        .iter()
        .map(|n| normalize(cert.machine.step_relation(n), k))
        .collect();
    for (pi, p) in g.productions.iter().enumerate() {
        let lhs_claim = claims.get(p.lhs.index()).copied().flatten();
        let rhs_productive = p.rhs.iter().all(|s| match s {
            Sym::T(_) => true,
            Sym::N(n) => is_prod(*n),
        });
        if !rhs_productive || !is_prod(p.lhs) {
            continue; // derives nothing
        }
        let Some(lhs_claim) = lhs_claim else {
            continue; // unclaimed left side: must be unreachable from the claimed part
        };
        let mut current: BTreeSet<Relation> = BTreeSet::new();
        current.insert(identity());
        for s in &p.rhs {
            let choices: Vec<&Relation> = match s {
                Sym::T(t) => match term_rels.get(t.index()) {
                    Some(r) => vec![r],
                    None => return Err(format!("production {pi}: terminal out of range")),
                },
                Sym::N(n) => match claims.get(n.index()).copied().flatten() {
                    Some(rs) => rs.iter().collect(),
                    None => {
                        return Err(format!(
                            "production {pi}: no claim for {}",
                            g.nonterminal_name(*n)
                        ))
                    }
                },
            };
            let mut next = BTreeSet::new();
            for r in &current {
                for c in &choices {
                    next.insert(compose(r, c, k));
                }
            }
            current = next;
            if current.len() > 1_000_000 {
                return Err(format!("production {pi}: too many compositions to check"));
            }
        }
        for r in &current {
            if !lhs_claim.iter().any(|c| leq(c, r)) {
                return Err(format!(
                    "production {pi} ({} -> {}): a composed relation is not covered",
                    g.nonterminal_name(p.lhs),
                    g.rhs_to_string(&p.rhs)
                ));
            }
        }
    }
    Ok(())
}
