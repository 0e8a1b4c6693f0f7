//! What a generic container of the library hands back: `queue.removeFirst()` on a
//! field declared `ArrayDeque<O>` is an `O`, `map.get(k)` on a `Map<K, Item>` an `Item`.
//!
//! javac casts such a result to the type argument at the call (the container's method
//! returns its erasure), so in a completed execution the value is of that type: the
//! receiver of `queue.removeFirst().release()` is one of the program's classes below `O`'s
//! bound, not an object of unknown type (which could be an object of the protocol). Only
//! receivers whose declared type is written where this can read it (a local, parameter
//! or field named bare or through `this`) are typed; any other result stays unknown.

use super::*;

/// Which family a library container belongs to, by its simple name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Lists, queues, deques, stacks and sets: one element type.
    Sequence,
    /// Iterators and enumerations.
    Cursor,
    /// One value: optionals, atomic and weak references, futures, suppliers.
    Holder,
    /// Maps: keys and values.
    Map,
    /// `Map.Entry`.
    Entry,
}

fn family(container: &str) -> Option<Family> {
    Some(match container {
        "List"
        | "ArrayList"
        | "LinkedList"
        | "Vector"
        | "Stack"
        | "CopyOnWriteArrayList"
        | "AbstractList"
        | "Queue"
        | "Deque"
        | "ArrayDeque"
        | "PriorityQueue"
        | "BlockingQueue"
        | "BlockingDeque"
        | "LinkedBlockingQueue"
        | "ArrayBlockingQueue"
        | "LinkedBlockingDeque"
        | "PriorityBlockingQueue"
        | "ConcurrentLinkedQueue"
        | "ConcurrentLinkedDeque"
        | "DelayQueue"
        | "SynchronousQueue"
        | "TreeSet"
        | "SortedSet"
        | "NavigableSet"
        | "ConcurrentSkipListSet" => Family::Sequence,
        "Iterator" | "ListIterator" | "Enumeration" => Family::Cursor,
        "Optional"
        | "AtomicReference"
        | "Reference"
        | "WeakReference"
        | "SoftReference"
        | "ThreadLocal"
        | "InheritableThreadLocal"
        | "Future"
        | "FutureTask"
        | "CompletableFuture"
        | "Supplier"
        | "Callable" => Family::Holder,
        "Map"
        | "HashMap"
        | "LinkedHashMap"
        | "TreeMap"
        | "SortedMap"
        | "NavigableMap"
        | "ConcurrentMap"
        | "ConcurrentHashMap"
        | "ConcurrentSkipListMap"
        | "WeakHashMap"
        | "IdentityHashMap"
        | "Hashtable"
        | "EnumMap" => Family::Map,
        "Entry" => Family::Entry,
        _ => return None,
    })
}

/// The index of the type argument that `method` with `arity` arguments returns, for a
/// container of `family`; `None` when it returns something else (or may: `List.remove`
/// with one argument is `remove(int)` or `remove(Object)`).
fn returned_argument(family: Family, method: &str, arity: usize) -> Option<usize> {
    let element = match (family, method, arity) {
        (Family::Sequence, "get" | "elementAt" | "floor" | "ceiling" | "higher" | "lower", 1)
        | (Family::Sequence, "set", 2)
        | (Family::Sequence, "poll", 0 | 2)
        | (
            Family::Sequence,
            "remove" | "peek" | "element" | "pop" | "take" | "removeFirst" | "removeLast"
            | "pollFirst" | "pollLast" | "peekFirst" | "peekLast" | "getFirst" | "getLast"
            | "takeFirst" | "takeLast" | "first" | "last" | "firstElement" | "lastElement",
            0,
        )
        | (Family::Cursor, "next" | "previous" | "nextElement", 0)
        | (Family::Holder, "get" | "orElseThrow" | "call" | "join", 0)
        | (Family::Holder, "get", 2)
        | (Family::Holder, "getAndSet" | "getNow", 1) => 0,
        (Family::Map, "get" | "remove", 1)
        | (
            Family::Map,
            "put" | "getOrDefault" | "putIfAbsent" | "replace" | "computeIfAbsent"
            | "computeIfPresent" | "compute",
            2,
        )
        | (Family::Map, "merge", 3)
        | (Family::Entry, "getValue", 0)
        | (Family::Entry, "setValue", 1) => {
            return Some(1);
        }
        (Family::Map, "firstKey" | "lastKey", 0)
        | (Family::Map, "floorKey" | "ceilingKey" | "higherKey" | "lowerKey", 1)
        | (Family::Entry, "getKey", 0) => 0,
        _ => return None,
    };
    Some(element)
}

/// Whether an interface `c` implements (transitively) declares a field `name`.
fn interface_declares(t: &ClassTable<'_>, c: ClassId, name: &str) -> bool {
    let mut todo: Vec<ClassId> = t.classes[c.index()].interfaces.clone();
    let mut seen: Vec<ClassId> = Vec::new();
    while let Some(i) = todo.pop() {
        if seen.contains(&i) {
            continue;
        }
        seen.push(i);
        let info = &t.classes[i.index()];
        let declares = info.decl.members.iter().any(|m| {
            matches!(m, ast::Member::Field(f) if f.declarators.iter().any(|d| d.name.name == name))
        });
        if declares {
            return true;
        }
        todo.extend(info.interfaces.iter().copied());
    }
    false
}

/// Type parameters as declared: their names, and the bounds of the bounded ones.
type TypeParams<'t> = (&'t Vec<String>, &'t Vec<(String, ast::TypeRef)>);

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// Remember the written type of local `v` when it has generic arguments.
    pub(super) fn note_generic_local(&mut self, v: VarId, t: &ast::TypeRef) {
        if matches!(&t.kind, ast::TypeKind::Named { args, .. } if !args.is_empty()) {
            self.generic_locals.push((v, t.clone()));
        }
    }

    /// The type of `target.method(…)` with `arity` arguments when `target` is declared
    /// with a generic container of the library and the method returns one of its type
    /// arguments: that argument (a type variable's bound), if it is a reference type
    /// other than `Object`.
    pub(super) fn container_result(
        &self,
        target: &ast::Expr,
        method: &str,
        arity: usize,
    ) -> Option<Type> {
        let written = self.written_type(target)?;
        let ast::TypeKind::Named { name, args, .. } = &written.kind else {
            return None;
        };
        // A class of the program of that name is no library container.
        if !matches!(self.cx.table.resolve(&written), Type::External(_)) {
            return None;
        }
        let k = returned_argument(family(name)?, method, arity)?;
        let arg = args.get(k)?;
        match self.resolve_bounded(arg, 0) {
            t @ Type::Class(_) => Some(t),
            // A class of the JDK (not a type variable this did not see declared).
            Type::External(n)
                if n != super::generics::OBJECT && crate::classes::jdk::ancestors(&n).is_some() =>
            {
                Some(Type::External(n))
            }
            _ => None,
        }
    }

    /// The type as written of a local, parameter or field named by `target`.
    fn written_type(&self, target: &ast::Expr) -> Option<ast::TypeRef> {
        let name = match &target.kind {
            ExprKind::Name(id) => {
                if let Some((_, v)) = self.scope.iter().rev().find(|(n, _)| *n == id.name) {
                    return self
                        .generic_locals
                        .iter()
                        .rev()
                        .find(|(g, _)| g == v)
                        .map(|(_, t)| t.clone());
                }
                &id.name
            }
            ExprKind::Field { target, name } if matches!(target.kind, ExprKind::This) => &name.name,
            _ => return None,
        };
        // A field of this class, a superclass or an enclosing class, as javac looks.
        let t = &self.cx.table;
        let mut outer = self.class;
        while let Some(o) = outer {
            let mut cur = Some(o);
            let mut steps = 0;
            while let Some(c) = cur {
                // A constant of an interface of the class may be the one meant: unsure.
                if interface_declares(t, c, name) {
                    return None;
                }
                for m in &t.classes[c.index()].decl.members {
                    match m {
                        // (A superclass's private field is not inherited.)
                        ast::Member::Field(f) if steps == 0 || !f.modifiers.is_private => {
                            if let Some(d) = f.declarators.iter().find(|d| d.name.name == *name) {
                                return Some(d.ty.clone());
                            }
                        }
                        _ => {}
                    }
                }
                steps += 1;
                if steps > t.classes.len() {
                    return None;
                }
                cur = t.classes[c.index()].superclass;
            }
            // Not in the program's classes: a library superclass may declare it.
            if matches!(target.kind, ExprKind::Field { .. }) || t.has_external_ancestor(o) {
                return None;
            }
            outer = t.classes[o.index()].outer;
        }
        None
    }

    /// The type `t` denotes, a type variable of the method or its classes standing for
    /// its bound (`Object` when it has none).
    fn resolve_bounded(&self, t: &ast::TypeRef, depth: usize) -> Type {
        let ast::TypeKind::Named {
            name, qualifier, ..
        } = &t.kind
        else {
            return self.cx.table.resolve(t);
        };
        if !qualifier.is_empty() || depth > 8 {
            return self.cx.table.resolve(t);
        }
        let object = || Type::External(super::generics::OBJECT.to_owned());
        // A type variable named in a closure's or local class's code may be one of the
        // enclosing method's, which this does not see.
        let table = &self.cx.table;
        let is_var = self.cx.type_vars.contains(name);
        // So may a constructor's own type variable (`<O extends A> Box(…)`), which the
        // parser does not keep.
        let in_ctor = matches!(table.methods[self.id.index()].source, MethodSource::Ctor(_));
        if is_var && (in_ctor || self.class.is_some_and(|c| self.cx.closure(c).is_some())) {
            return object();
        }
        let method = match &table.methods[self.id.index()].source {
            MethodSource::Method(md) => Some((&md.type_params, &md.type_bounds)),
            _ => None,
        };
        // The method's own type parameters first, then its classes', innermost first.
        let mut scopes: Vec<TypeParams<'_>> = method.into_iter().collect();
        let mut cls = self.class;
        while let Some(c) = cls {
            let d = table.classes[c.index()].decl;
            scopes.push((&d.type_params, &d.type_bounds));
            cls = table.classes[c.index()].outer;
        }
        for (params, bounds) in scopes {
            if params.iter().any(|p| p == name) {
                return match bounds.iter().find(|(p, _)| p == name) {
                    Some((_, b)) => self.resolve_bounded(b, depth + 1),
                    None => object(),
                };
            }
        }
        // (A constructor's own type variable, say.)
        if is_var {
            return object();
        }
        table.resolve(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_element_methods_of_each_family() {
        let seq = family("ArrayDeque");
        assert!(seq == Some(Family::Sequence));
        assert_eq!(
            returned_argument(Family::Sequence, "removeFirst", 0),
            Some(0)
        );
        assert_eq!(returned_argument(Family::Sequence, "get", 1), Some(0));
        // `remove(int)` or `remove(Object)`: not sure to be an element.
        assert_eq!(returned_argument(Family::Sequence, "remove", 1), None);
        assert_eq!(returned_argument(Family::Sequence, "isEmpty", 0), None);
        assert_eq!(returned_argument(Family::Map, "get", 1), Some(1));
        assert_eq!(returned_argument(Family::Map, "firstKey", 0), Some(0));
        assert_eq!(returned_argument(Family::Map, "containsKey", 1), None);
        assert_eq!(returned_argument(Family::Entry, "getValue", 0), Some(1));
        assert_eq!(returned_argument(Family::Cursor, "next", 0), Some(0));
        assert_eq!(returned_argument(Family::Holder, "get", 0), Some(0));
        assert!(family("Widget").is_none());
    }
}
