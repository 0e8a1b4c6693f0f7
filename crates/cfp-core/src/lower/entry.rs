//! The entry method: `main`, or the method `--entry` names (`C.m`, `C.m/2`,
//! `C.m(int,String)`; a class by its simple, nested or qualified name).

use super::*;

impl<'a> ProgramLowerer<'a> {
    pub(super) fn find_entry(&mut self, opts: &LowerOptions) -> Option<MethodId> {
        let wanted = opts.entry.clone().unwrap_or_else(|| "main".to_string());
        let (head, overload) = entry_overload(&wanted);
        let (class, name) = match head.rsplit_once('.') {
            Some((c, n)) => (Some(c.to_string()), n.to_string()),
            None => (None, head.to_owned()),
        };
        let mut cands: Vec<&MethodSig> = self
            .table
            .methods
            .iter()
            .filter(|m| matches!(m.source, MethodSource::Method(_)) && !m.is_abstract)
            .filter(|m| m.name == name)
            .filter(|m| match (&class, m.class) {
                (Some(c), Some(k)) => cfp_syntax::resolve::names_class(c, self.table.class_name(k)),
                _ => true,
            })
            .filter(|m| match (&overload, &m.source) {
                (Overload::Any, _) => true,
                (Overload::Arity(n), _) => m.params.len() == *n,
                (Overload::Types(ts), MethodSource::Method(d)) => {
                    d.params.len() == ts.len()
                        && d.params
                            .iter()
                            .zip(ts)
                            .all(|(p, t)| type_key(&p.ty.kind) == *t)
                }
                (Overload::Types(_), _) => false,
            })
            .collect();
        if cands.len() > 1 && cands.iter().any(|m| m.is_static) {
            cands.retain(|m| m.is_static);
        }
        if cands.len() > 1 && name == "main" {
            let std_main: Vec<&MethodSig> = cands
                .iter()
                .copied()
                .filter(|m| m.params.len() == 1 && matches!(m.params[0].1, Type::Array(_)))
                .collect();
            if !std_main.is_empty() {
                cands = std_main;
            }
        }
        match cands.as_slice() {
            [one] => Some(one.id),
            [] => {
                let span = self
                    .table
                    .classes
                    .first()
                    .map_or(Span::default(), |c| c.decl.name.span);
                self.error(
                    "entry-not-found",
                    span,
                    format!("entry method `{wanted}` not found (a method with a body is needed)"),
                );
                None
            }
            many => {
                let names: Vec<String> = many.iter().map(|m| m.display.clone()).collect();
                let span = many[1].span;
                self.error(
                    "ambiguous-entry",
                    span,
                    format!(
                        "entry method `{wanted}` is ambiguous: {} (choose one with `Class.method`, \
                         `Class.method/ARITY` or `Class.method(int,String)`)",
                        names.join(", ")
                    ),
                );
                None
            }
        }
    }
}

/// Which overload `--entry` names.
#[derive(Debug, PartialEq, Eq)]
enum Overload {
    /// `C.m`: any.
    Any,
    /// `C.m/3`: by arity.
    Arity(usize),
    /// `C.m(int,String)`: by parameter types (see [`type_key`]).
    Types(Vec<String>),
}

/// `C.m(int, java.lang.String)` → (`C.m`, types), `C.m/3` → (`C.m`, arity), else as is.
fn entry_overload(wanted: &str) -> (&str, Overload) {
    if let Some((head, rest)) = wanted.split_once('(') {
        let inner = rest.trim_end().trim_end_matches(')');
        let mut types = Vec::new();
        let mut depth = 0usize;
        let mut cur = String::new();
        for ch in inner.chars() {
            match ch {
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => types.push(std::mem::take(&mut cur)),
                _ if depth == 0 => cur.push(ch),
                _ => {}
            }
        }
        if !cur.trim().is_empty() {
            types.push(cur);
        }
        let types = types.iter().map(|t| normal_type_name(t)).collect();
        return (head.trim(), Overload::Types(types));
    }
    if let Some((head, n)) = wanted.rsplit_once('/') {
        if let Ok(n) = n.trim().parse::<usize>() {
            return (head.trim(), Overload::Arity(n));
        }
    }
    (wanted, Overload::Any)
}

/// A type as written on the command line, in the terms of [`type_key`]: the last segment
/// of a qualified name, `short`/`byte`/`char` as `int`, `double` as `float`, `T...` as `T[]`.
fn normal_type_name(t: &str) -> String {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let (base, dims) = match t.find('[').or_else(|| t.find("...")) {
        Some(i) => (
            &t[..i],
            t[i..]
                .matches('[')
                .count()
                .max(usize::from(t.contains("..."))),
        ),
        None => (t.as_str(), 0),
    };
    let base = base.rsplit('.').next().unwrap_or(base);
    let base = match base {
        "short" | "byte" | "char" => "int",
        "double" => "float",
        other => other,
    };
    format!("{base}{}", "[]".repeat(dims))
}

/// A declared parameter type as [`normal_type_name`] writes it.
fn type_key(t: &cfp_syntax::ast::TypeKind) -> String {
    use cfp_syntax::ast::TypeKind as K;
    match t {
        K::Int | K::Short | K::Byte | K::Char => "int".to_owned(),
        K::Long => "long".to_owned(),
        K::Boolean => "boolean".to_owned(),
        K::Float | K::Double => "float".to_owned(),
        K::Void => "void".to_owned(),
        K::Named { name, .. } => name.clone(),
        K::Array(inner) => format!("{}[]", type_key(&inner.kind)),
        K::Inferred => "var".to_owned(),
    }
}
