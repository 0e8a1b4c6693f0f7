//! Recursive-descent parser of the program language (a Java subset, ARCHITECTURE.md).
//!
//! Entry point: [`parse_program`]. The parser never fails and never panics: errors become
//! [`Diagnostic`]s and the tree keeps what could be recovered. Recovery rules:
//! * an expression that cannot be parsed becomes [`ExprKind::Error`] without consuming
//!   the offending token; statements and members then resynchronise on `;`, `}`, `{` and
//!   statement/member keywords;
//! * every loop consumes at least one token per iteration or stops;
//! * at most one error is reported per token (later ones at the same token are cascades);
//! * nesting deeper than [`MAX_DEPTH`] is reported once (`nesting-too-deep`) and the
//!   too-deep part is skipped, so the parser's recursion (and the tree) stays bounded.
//!
//! [`ExprKind::Error`]: crate::ast::ExprKind::Error

mod exprs;
mod items;
mod primary;
mod records;
mod stmts;
mod switch;
mod types;

use crate::ast::{CompilationUnit, Ident};
use crate::diagnostic::Diagnostic;
use crate::lexer::{lex_from, Keyword, Token, TokenKind};
use crate::span::Span;
use crate::Parsed;

/// Maximum nesting of expressions and statements (combined) before the parser gives up
/// on the nested part with a `nesting-too-deep` error.
pub const MAX_DEPTH: u32 = 256;

/// The code of the errors about constructs the checker does not support
/// ([`crate::ast::CompilationUnit::unsupported`]).
pub const UNSUPPORTED: &str = "unsupported";

/// Maximum depth of the tree built for one member: recursive nesting plus the levels
/// that left-nested chains add (`a + b + c …`, `x.f().g() …`, `a[i][j] …`). Every
/// consumer of the tree (lowering, dumps, `Drop`) recurses over it, so its depth must be
/// bounded whatever the input.
pub const MAX_TREE_DEPTH: u32 = 1500;

/// How far the speculative lookahead (types in casts and declarations) may scan.
const MAX_SCAN: usize = 512;

/// Placeholder name of an identifier or type that could not be parsed (an error was
/// reported); never a valid Java identifier.
pub const ERROR_NAME: &str = "<error>";

/// Parse a whole program (one Java source file). Never fails: the result holds the
/// (possibly partial) tree and all lexical and syntax diagnostics in source order.
pub fn parse_program(text: &str) -> Parsed<CompilationUnit> {
    parse_program_in(text, 0..text.len())
}

/// Parse the file occupying `range` of `text` (one file of a
/// [`crate::sources::SourceSet`]); every span of the tree and of the diagnostics is an
/// offset into `text`. A range outside `text` or off character boundaries parses
/// nothing.
pub fn parse_program_in(text: &str, range: std::ops::Range<usize>) -> Parsed<CompilationUnit> {
    let (start, end) = if range.start <= range.end
        && text.is_char_boundary(range.start)
        && text.is_char_boundary(range.end)
    {
        (range.start, range.end)
    } else {
        (text.len(), text.len())
    };
    let text = &text[..end];
    let lexed = lex_from(text, start);
    let mut p = Parser {
        start,
        text,
        toks: lexed.tokens,
        strings: lexed.strings,
        lex_diags: lexed.diagnostics.iter().map(|d| d.span).collect(),
        pos: 0,
        diags: lexed.diagnostics,
        last_error_tok: usize::MAX,
        depth: 0,
        tree_depth: 0,
        bailing: false,
        brace_depth: 0,
        in_case_label: false,
        scanned_depth: 0,
        unsplit: Vec::new(),
        closures: 0,
        record: None,
        compact_ctors: Vec::new(),
        switch_exprs: 0,
    };
    let mut unit = p.compilation_unit();
    let mut diags = p.diags;
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    unit.unsupported = diags
        .iter()
        .filter(|d| d.code == UNSUPPORTED)
        .cloned()
        .collect();
    Parsed {
        tree: unit,
        diagnostics: diags,
    }
}

pub(crate) struct Parser<'a> {
    /// Where the file starts in `text` (0 unless it is one file of a source set).
    start: usize,
    /// The text up to the end of the file.
    text: &'a str,
    /// Tokens; the last one is always `Eof`.
    toks: Vec<Token>,
    strings: Vec<String>,
    /// Spans of lexical errors (sorted), to avoid a parse error right after one.
    lex_diags: Vec<Span>,
    pos: usize,
    diags: Vec<Diagnostic>,
    /// Token index of the last reported parse error (cascade suppression).
    last_error_tok: usize,
    depth: u32,
    /// Depth of the tree under construction (see [`MAX_TREE_DEPTH`]).
    tree_depth: u32,
    /// Set when nesting got too deep: the parser then sees a virtual end of input (and
    /// reports nothing) until the enclosing member is skipped by [`Parser::bail_recover`].
    bailing: bool,
    /// Number of `{` minus `}` consumed so far.
    brace_depth: usize,
    /// Parsing `case` labels: `x ->` there is an arrow case, not a lambda.
    in_case_label: bool,
    /// Number of enclosing closure bodies whose effects were scanned before they were
    /// parsed (block lambda bodies, anonymous class bodies): a token split by
    /// [`Parser::eat_gt`] inside one keeps its lexed kind for later scans.
    scanned_depth: u32,
    /// `(index, lexed kind)` of the tokens split inside such bodies (see
    /// [`Parser::scan_kind`]).
    unsplit: Vec<(usize, TokenKind)>,
    /// Closures and local classes parsed so far ([`CompilationUnit::closures`]).
    closures: usize,
    /// The record whose body is being parsed (`Name {` there is its compact
    /// constructor).
    record: Option<String>,
    /// Name spans of the compact constructors parsed in that body.
    compact_ctors: Vec<u32>,
    /// Switch expressions around the code parsed (`yield` is a statement inside one).
    switch_exprs: u32,
}

/// The statement keywords the statement-level recovery stops at.
fn is_stmt_keyword(k: TokenKind) -> bool {
    matches!(
        k,
        TokenKind::Keyword(
            Keyword::If
                | Keyword::While
                | Keyword::For
                | Keyword::Do
                | Keyword::Return
                | Keyword::Break
                | Keyword::Continue
                | Keyword::Throw
                | Keyword::Try
                | Keyword::Switch
                | Keyword::Synchronized
                | Keyword::Assert
                | Keyword::Final
                | Keyword::Int
                | Keyword::Long
                | Keyword::Boolean
                | Keyword::Short
                | Keyword::Byte
                | Keyword::Char
                | Keyword::Float
                | Keyword::Double
                | Keyword::Case
                | Keyword::Default
        )
    )
}

/// Tokens that can start a member (class-level recovery stops there).
fn is_member_start(k: TokenKind) -> bool {
    matches!(
        k,
        TokenKind::At
            | TokenKind::Keyword(
                Keyword::Public
                    | Keyword::Private
                    | Keyword::Protected
                    | Keyword::Static
                    | Keyword::Final
                    | Keyword::Abstract
                    | Keyword::Native
                    | Keyword::Synchronized
                    | Keyword::Transient
                    | Keyword::Volatile
                    | Keyword::Strictfp
                    | Keyword::Class
                    | Keyword::Interface
                    | Keyword::Enum
                    | Keyword::Void
                    | Keyword::Int
                    | Keyword::Long
                    | Keyword::Boolean
                    | Keyword::Short
                    | Keyword::Byte
                    | Keyword::Char
                    | Keyword::Float
                    | Keyword::Double
            )
    )
}

impl<'a> Parser<'a> {
    // ----- token access -------------------------------------------------------------

    fn tok(&self, i: usize) -> Token {
        match self.toks.get(if self.bailing { usize::MAX } else { i }) {
            Some(t) => *t,
            None => self.toks.last().copied().unwrap_or(Token {
                kind: TokenKind::Eof,
                span: Span::new(self.text.len(), self.text.len()),
            }),
        }
    }

    fn peek(&self) -> Token {
        self.tok(self.pos)
    }

    fn kind(&self) -> TokenKind {
        self.peek().kind
    }

    fn nth_kind(&self, n: usize) -> TokenKind {
        self.tok(self.pos + n).kind
    }

    fn at(&self, k: TokenKind) -> bool {
        self.kind() == k
    }

    fn at_kw(&self, kw: Keyword) -> bool {
        self.kind() == TokenKind::Keyword(kw)
    }

    fn at_eof(&self) -> bool {
        self.at(TokenKind::Eof)
    }

    /// True at an identifier spelled `word` (contextual keywords such as `var`).
    fn at_contextual(&self, word: &str) -> bool {
        self.at(TokenKind::Ident) && self.tok_text(self.peek()) == word
    }

    /// Advance by one token (never past `Eof`) and return the consumed token.
    fn bump(&mut self) -> Token {
        let t = self.peek();
        match t.kind {
            TokenKind::Eof => return t,
            TokenKind::LBrace => self.brace_depth += 1,
            TokenKind::RBrace => self.brace_depth = self.brace_depth.saturating_sub(1),
            _ => {}
        }
        self.pos += 1;
        t
    }

    fn eat(&mut self, k: TokenKind) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: Keyword) -> bool {
        self.eat(TokenKind::Keyword(kw))
    }

    /// Span of the last consumed token (an empty span at 0 before the first).
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => Span::new(0, 0),
        }
    }

    /// Span from `start` to the end of the last consumed token.
    fn span_from(&self, start: Span) -> Span {
        let prev = self.prev_span();
        if prev.end < start.start {
            Span::new(start.start as usize, start.start as usize)
        } else {
            Span {
                start: start.start,
                end: prev.end,
            }
        }
    }

    fn tok_text(&self, t: Token) -> &'a str {
        self.text
            .get(t.span.start as usize..t.span.end as usize)
            .unwrap_or("")
    }

    /// How a token is named in messages: "`;`", "`foo`", "end of file", ….
    fn describe(&self, t: Token) -> String {
        match t.kind {
            TokenKind::Eof => "end of file".to_string(),
            TokenKind::Str(_) => "a string literal".to_string(),
            TokenKind::Char(_) => "a character literal".to_string(),
            _ => {
                let text = self.tok_text(t);
                let short: String = text.chars().take(24).collect();
                if short.len() < text.len() {
                    format!("`{short}…`")
                } else {
                    format!("`{short}`")
                }
            }
        }
    }

    // ----- diagnostics --------------------------------------------------------------

    /// Report an error at the current token unless one was already reported there
    /// (or a lexical error sits just before it).
    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        if self.bailing || self.last_error_tok == self.pos {
            return;
        }
        self.last_error_tok = self.pos;
        if self.follows_lex_error() {
            return;
        }
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    /// Report an error that is not tied to the current token (e.g. `unsupported` or
    /// `not-a-statement` about a construct already consumed); never suppressed.
    fn error_always(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        if self.bailing {
            return;
        }
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    /// True when a lexical error lies between the previous token and the current one
    /// (the parse error there would only repeat it).
    fn follows_lex_error(&self) -> bool {
        let lo = self.prev_span().end;
        let hi = self.peek().span.start;
        let i = self.lex_diags.partition_point(|s| s.start < lo);
        self.lex_diags
            .get(i)
            .is_some_and(|s| s.start >= lo && s.start < hi)
    }

    /// "expected X, found Y" at the current token.
    fn error_expected(&mut self, what: &str) {
        let t = self.peek();
        let msg = format!("expected {what}, found {}", self.describe(t));
        self.error("expected-token", t.span, msg);
    }

    /// Consume `k` or report "expected `k`, found …" (without consuming).
    fn expect(&mut self, k: TokenKind) -> bool {
        if self.eat(k) {
            return true;
        }
        let what = format!("`{}`", k.fixed_text().unwrap_or("?"));
        self.error_expected(&what);
        false
    }

    /// True when a line break separates the previous token from the current one.
    fn newline_before_current(&self) -> bool {
        let lo = self.prev_span().end as usize;
        let hi = self.peek().span.start as usize;
        self.text
            .get(lo..hi)
            .is_some_and(|s| s.contains('\n') || s.contains('\r'))
    }

    /// Consume the `;` ending a statement or field. When it is missing, report it at the
    /// end of the previous token; if the next token is on the same line (and not a
    /// closing brace) skip to the end of the statement.
    fn expect_semi(&mut self) {
        if self.eat(TokenKind::Semi) {
            return;
        }
        let t = self.peek();
        let at = self.prev_span().end_point();
        let msg = format!("expected `;`, found {}", self.describe(t));
        self.error("expected-token", at, msg);
        if !self.newline_before_current() && !self.at(TokenKind::RBrace) {
            self.sync_stmt();
        }
    }

    /// Consume a closing `)`; when missing, report and skip to it (consuming it) unless
    /// a `{`, `;` or `}` comes first.
    fn expect_close_paren(&mut self) {
        if self.eat(TokenKind::RParen) {
            return;
        }
        self.error_expected("`)`");
        self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
    }

    /// Skip tokens to the closer of the current nesting level (consuming it), stopping
    /// before `{`, `;`, `}` or end of input.
    fn skip_to_close(&mut self, open: TokenKind, close: TokenKind) {
        let mut depth = 0usize;
        loop {
            let k = self.kind();
            if k == open {
                depth += 1;
            } else if k == close {
                if depth == 0 {
                    self.bump();
                    return;
                }
                depth -= 1;
            } else if matches!(
                k,
                TokenKind::Eof | TokenKind::Semi | TokenKind::LBrace | TokenKind::RBrace
            ) {
                return;
            }
            self.bump();
        }
    }

    /// Expect an identifier; on failure report and return a placeholder (not consumed).
    fn expect_ident(&mut self) -> Ident {
        let t = self.peek();
        if t.kind == TokenKind::Ident {
            self.bump();
            return Ident {
                name: self.tok_text(t).to_string(),
                span: t.span,
            };
        }
        let msg = format!("expected an identifier, found {}", self.describe(t));
        self.error("expected-identifier", t.span, msg);
        Ident {
            name: ERROR_NAME.to_string(),
            span: Span::new(t.span.start as usize, t.span.start as usize),
        }
    }

    // ----- nesting ------------------------------------------------------------------

    /// Enter one nesting level; false when too deep: then the error is reported and
    /// the parser bails out of the current member (see [`Parser::bail_recover`]).
    /// Callers call [`Parser::leave`] only when this returned true.
    fn enter(&mut self) -> bool {
        if self.bailing {
            return false;
        }
        if self.depth >= MAX_DEPTH || self.tree_depth >= MAX_TREE_DEPTH {
            return self.too_deep(format!(
                "nesting is too deep (more than {MAX_DEPTH} levels)"
            ));
        }
        self.depth += 1;
        self.tree_depth += 1;
        true
    }

    /// Report `nesting-too-deep` at the current token and start bailing out; false.
    fn too_deep(&mut self, message: String) -> bool {
        let t = self.peek();
        self.last_error_tok = self.pos;
        self.diags
            .push(Diagnostic::error("nesting-too-deep", t.span, message));
        self.bailing = true;
        false
    }

    /// Account for one more level of a left-nested chain (no recursion); false when the
    /// tree would get too deep: then the error is reported and the parser bails out.
    /// Callers give the levels back with [`Parser::leave_chain`].
    pub(crate) fn enter_chain(&mut self) -> bool {
        if self.bailing {
            return false;
        }
        if self.tree_depth >= MAX_TREE_DEPTH {
            return self.too_deep(format!(
                "expression is too deeply nested (more than {MAX_TREE_DEPTH} levels)"
            ));
        }
        self.tree_depth += 1;
        true
    }

    /// Give back `levels` chain levels taken with [`Parser::enter_chain`].
    pub(crate) fn leave_chain(&mut self, levels: u32) {
        self.tree_depth = self.tree_depth.saturating_sub(levels);
    }

    /// The nesting levels taken so far (`(depth, tree depth)`), to give to
    /// [`Parser::bail_recover`] after a member.
    fn levels(&self) -> (u32, u32) {
        (self.depth, self.tree_depth)
    }

    /// After a bail-out (too deep nesting), skip the rest of the member that started at
    /// brace depth `d` with nesting `levels` ([`Parser::levels`]): through the `}` that
    /// returns to depth `d`, or a `;` at depth `d`, or up to a `}` closing the enclosing
    /// body. The nesting goes back to `levels`, so a member of a class nested in an
    /// expression (an anonymous or local class) still counts the levels around it.
    fn bail_recover(&mut self, d: usize, levels: (u32, u32)) {
        if !self.bailing {
            return;
        }
        self.bailing = false;
        (self.depth, self.tree_depth) = levels;
        loop {
            if self.at_eof() {
                return;
            }
            if self.brace_depth <= d {
                if self.at(TokenKind::RBrace) {
                    return;
                }
                if self.at(TokenKind::Semi) {
                    self.bump();
                    return;
                }
            }
            let t = self.bump();
            if t.kind == TokenKind::RBrace && self.brace_depth <= d {
                return;
            }
        }
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.tree_depth = self.tree_depth.saturating_sub(1);
    }

    /// Skip one token, or a whole balanced `(…)`, `[…]` or `{…}` group when at an opener.
    fn skip_balanced(&mut self) {
        let end = self.balanced_end(self.pos);
        while self.pos < end && !self.at_eof() {
            self.bump();
        }
    }

    /// Where [`Parser::skip_balanced`] would stop if started at token `from`: after one
    /// token, or after the balanced group opened there. Purely speculative.
    fn balanced_end(&self, from: usize) -> usize {
        let mut stack: Vec<TokenKind> = Vec::new();
        let mut i = from;
        loop {
            let k = self.tok(i).kind;
            match k {
                TokenKind::Eof => return i,
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => stack.push(k),
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    if stack.is_empty() {
                        // A closer at the outer level: leave it to the enclosing parser.
                        return i;
                    }
                    // Pop to the matching opener (tolerating mismatches).
                    let open = match k {
                        TokenKind::RParen => TokenKind::LParen,
                        TokenKind::RBracket => TokenKind::LBracket,
                        _ => TokenKind::LBrace,
                    };
                    while let Some(o) = stack.pop() {
                        if o == open {
                            break;
                        }
                    }
                }
                _ => {}
            }
            i += 1;
            if stack.is_empty() {
                return i;
            }
        }
    }

    // ----- recovery -----------------------------------------------------------------

    /// Statement-level recovery: skip to just after `;`, or to `{`, `}`, a statement
    /// keyword, or end of input.
    fn sync_stmt(&mut self) {
        loop {
            let k = self.kind();
            match k {
                TokenKind::Eof | TokenKind::RBrace | TokenKind::LBrace => return,
                TokenKind::Semi => {
                    self.bump();
                    return;
                }
                _ if is_stmt_keyword(k) => return,
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// Member-level recovery: skip to just after `;` or a `{…}` group, or to `}`, a
    /// member-starting keyword, or end of input. Consumes at least one token unless at
    /// `}` or end of input.
    fn sync_member(&mut self) {
        let mut first = true;
        loop {
            let k = self.kind();
            match k {
                TokenKind::Eof | TokenKind::RBrace => return,
                TokenKind::Semi => {
                    self.bump();
                    return;
                }
                TokenKind::LBrace => {
                    self.skip_balanced();
                    return;
                }
                _ if is_member_start(k) && !first => return,
                _ => {
                    self.bump();
                }
            }
            first = false;
        }
    }

    // ----- lookahead ----------------------------------------------------------------

    /// If a type starts at token `i`, the index just after it (with array dims).
    /// Purely speculative: consumes nothing, reports nothing.
    fn scan_type(&self, i: usize) -> Option<usize> {
        let mut i = self.scan_annotations(i)?;
        match self.tok(i).kind {
            TokenKind::Keyword(k) if types::primitive(k).is_some() => i += 1,
            TokenKind::Ident => {
                i += 1;
                loop {
                    if self.tok(i).kind == TokenKind::Lt {
                        i = self.scan_type_args(i)?;
                    }
                    // `Outer.Inner`, and `Outer.@A Inner` (a type annotation).
                    if self.tok(i).kind == TokenKind::Dot {
                        let j = self.scan_annotations(i + 1)?;
                        if self.tok(j).kind == TokenKind::Ident {
                            i = j + 1;
                            continue;
                        }
                    }
                    break;
                }
            }
            _ => return None,
        }
        // `[]` dimensions, each possibly annotated (`T @A []`).
        loop {
            let j = self.scan_annotations(i)?;
            if self.tok(j).kind == TokenKind::LBracket
                && self.tok(j + 1).kind == TokenKind::RBracket
            {
                i = j + 2;
            } else {
                break;
            }
        }
        Some(i)
    }

    /// Skip annotations speculatively (`@A`, `@a.B(…)`) from token `i`.
    fn scan_annotations(&self, mut i: usize) -> Option<usize> {
        while self.tok(i).kind == TokenKind::At && self.tok(i + 1).kind == TokenKind::Ident {
            i += 2;
            while self.tok(i).kind == TokenKind::Dot && self.tok(i + 1).kind == TokenKind::Ident {
                i += 2;
            }
            if self.tok(i).kind == TokenKind::LParen {
                let mut depth = 0usize;
                let start = i;
                loop {
                    match self.tok(i).kind {
                        TokenKind::LParen | TokenKind::LBrace | TokenKind::LBracket => depth += 1,
                        TokenKind::RBrace | TokenKind::RBracket => depth = depth.saturating_sub(1),
                        TokenKind::RParen => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        TokenKind::Eof | TokenKind::Semi => return None,
                        _ => {}
                    }
                    i += 1;
                    if i - start > MAX_SCAN {
                        return None;
                    }
                }
            }
        }
        Some(i)
    }

    /// From a `<` at token `i`, the index after the matching `>` (counting `>>`, `>>>`).
    fn scan_type_args(&self, mut i: usize) -> Option<usize> {
        let start = i;
        let mut depth: i64 = 0;
        loop {
            match self.tok(i).kind {
                TokenKind::Lt => depth += 1,
                TokenKind::Gt => depth -= 1,
                TokenKind::Shr => depth -= 2,
                TokenKind::UShr => depth -= 3,
                TokenKind::Ident
                | TokenKind::Comma
                | TokenKind::Dot
                | TokenKind::Question
                | TokenKind::LBracket
                | TokenKind::RBracket
                | TokenKind::Amp
                | TokenKind::At
                | TokenKind::Keyword(Keyword::Extends | Keyword::Super) => {}
                TokenKind::Keyword(k) if types::primitive(k).is_some() => {}
                _ => return None,
            }
            i += 1;
            if depth == 0 {
                return Some(i);
            }
            if depth < 0 || i - start > MAX_SCAN {
                return None;
            }
        }
    }

    /// True when a local variable declaration starts at the current token.
    fn at_local_decl(&self) -> bool {
        let mut i = self.pos;
        let mut had_modifier = false;
        loop {
            match self.tok(i).kind {
                TokenKind::Keyword(Keyword::Final) => {
                    i += 1;
                    had_modifier = true;
                }
                TokenKind::At if self.tok(i + 1).kind == TokenKind::Ident => {
                    match self.scan_annotations(i) {
                        Some(j) => i = j,
                        None => return false,
                    }
                    had_modifier = true;
                }
                _ => break,
            }
        }
        if had_modifier {
            return true;
        }
        let t = self.tok(i);
        if t.kind == TokenKind::Ident
            && self.tok_text(t) == "var"
            && self.tok(i + 1).kind == TokenKind::Ident
        {
            return true;
        }
        if let TokenKind::Keyword(k) = t.kind {
            if types::primitive(k).is_some() {
                // `int.class…` / `int[].class…` are expressions.
                let mut j = i + 1;
                while self.tok(j).kind == TokenKind::LBracket
                    && self.tok(j + 1).kind == TokenKind::RBracket
                {
                    j += 2;
                }
                return self.tok(j).kind != TokenKind::Dot;
            }
        }
        match self.scan_type(i) {
            Some(j) => self.tok(j).kind == TokenKind::Ident,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests;
