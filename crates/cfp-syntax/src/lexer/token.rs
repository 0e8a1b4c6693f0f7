//! What the lexer produces: keywords, token kinds (with their spelling), tokens with
//! spans, and the lexer's output.

use super::*;

/// Java keywords (contextual ones such as `var` or `record` are identifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Keyword {
    Abstract,
    Assert,
    Boolean,
    Break,
    Byte,
    Case,
    Catch,
    Char,
    Class,
    Const,
    Continue,
    Default,
    Do,
    Double,
    Else,
    Enum,
    Extends,
    False,
    Final,
    Finally,
    Float,
    For,
    Goto,
    If,
    Implements,
    Import,
    Instanceof,
    Int,
    Interface,
    Long,
    Native,
    New,
    Null,
    Package,
    Private,
    Protected,
    Public,
    Return,
    Short,
    Static,
    Strictfp,
    Super,
    Switch,
    Synchronized,
    This,
    Throw,
    Throws,
    Transient,
    True,
    Try,
    Void,
    Volatile,
    While,
}

pub(super) const KEYWORDS: &[(&str, Keyword)] = &[
    ("abstract", Keyword::Abstract),
    ("assert", Keyword::Assert),
    ("boolean", Keyword::Boolean),
    ("break", Keyword::Break),
    ("byte", Keyword::Byte),
    ("case", Keyword::Case),
    ("catch", Keyword::Catch),
    ("char", Keyword::Char),
    ("class", Keyword::Class),
    ("const", Keyword::Const),
    ("continue", Keyword::Continue),
    ("default", Keyword::Default),
    ("do", Keyword::Do),
    ("double", Keyword::Double),
    ("else", Keyword::Else),
    ("enum", Keyword::Enum),
    ("extends", Keyword::Extends),
    ("false", Keyword::False),
    ("final", Keyword::Final),
    ("finally", Keyword::Finally),
    ("float", Keyword::Float),
    ("for", Keyword::For),
    ("goto", Keyword::Goto),
    ("if", Keyword::If),
    ("implements", Keyword::Implements),
    ("import", Keyword::Import),
    ("instanceof", Keyword::Instanceof),
    ("int", Keyword::Int),
    ("interface", Keyword::Interface),
    ("long", Keyword::Long),
    ("native", Keyword::Native),
    ("new", Keyword::New),
    ("null", Keyword::Null),
    ("package", Keyword::Package),
    ("private", Keyword::Private),
    ("protected", Keyword::Protected),
    ("public", Keyword::Public),
    ("return", Keyword::Return),
    ("short", Keyword::Short),
    ("static", Keyword::Static),
    ("strictfp", Keyword::Strictfp),
    ("super", Keyword::Super),
    ("switch", Keyword::Switch),
    ("synchronized", Keyword::Synchronized),
    ("this", Keyword::This),
    ("throw", Keyword::Throw),
    ("throws", Keyword::Throws),
    ("transient", Keyword::Transient),
    ("true", Keyword::True),
    ("try", Keyword::Try),
    ("void", Keyword::Void),
    ("volatile", Keyword::Volatile),
    ("while", Keyword::While),
];

impl Keyword {
    /// The keyword for `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Keyword> {
        KEYWORDS.iter().find(|(s, _)| *s == word).map(|(_, k)| *k)
    }

    /// The keyword as written.
    pub fn as_str(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(s, _)| s)
    }
}

/// What a token is. Identifier and literal texts are read back from the source through
/// the token's span; decoded string literals live in [`Lexed::strings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TokenKind {
    /// An identifier (including contextual keywords such as `var`).
    Ident,
    /// A reserved keyword (and the literals `true`, `false`, `null`).
    Keyword(Keyword),
    /// An integer literal: its unsigned value as written, `L` suffix, and whether it
    /// was written in decimal (only decimal `2147483648`/`9223372036854775808L` need a
    /// preceding unary minus).
    Int {
        value: u64,
        is_long: bool,
        decimal: bool,
    },
    /// A floating-point literal (text from the span).
    Float,
    /// A string literal (or text block); index into [`Lexed::strings`].
    Str(u32),
    /// A character literal: its UTF-16 code unit (or code point).
    Char(u32),
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Dot,
    Ellipsis,
    At,
    ColonColon,
    Assign,
    Gt,
    Lt,
    Bang,
    Tilde,
    Question,
    Colon,
    Arrow,
    EqEq,
    Ge,
    Le,
    Ne,
    AndAnd,
    OrOr,
    PlusPlus,
    MinusMinus,
    Plus,
    Minus,
    Star,
    Slash,
    Amp,
    Pipe,
    Caret,
    Percent,
    Shl,
    Shr,
    UShr,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    AmpEq,
    PipeEq,
    CaretEq,
    PercentEq,
    ShlEq,
    ShrEq,
    UShrEq,
    /// End of input (always the last token, with an empty span at the end).
    Eof,
}

/// Punctuators, longest first (so that maximal munch is a linear scan).
pub(super) const PUNCT: &[(&str, TokenKind)] = &[
    (">>>=", TokenKind::UShrEq),
    ("<<=", TokenKind::ShlEq),
    (">>=", TokenKind::ShrEq),
    (">>>", TokenKind::UShr),
    ("...", TokenKind::Ellipsis),
    ("::", TokenKind::ColonColon),
    ("->", TokenKind::Arrow),
    ("==", TokenKind::EqEq),
    (">=", TokenKind::Ge),
    ("<=", TokenKind::Le),
    ("!=", TokenKind::Ne),
    ("&&", TokenKind::AndAnd),
    ("||", TokenKind::OrOr),
    ("++", TokenKind::PlusPlus),
    ("--", TokenKind::MinusMinus),
    ("<<", TokenKind::Shl),
    (">>", TokenKind::Shr),
    ("+=", TokenKind::PlusEq),
    ("-=", TokenKind::MinusEq),
    ("*=", TokenKind::StarEq),
    ("/=", TokenKind::SlashEq),
    ("&=", TokenKind::AmpEq),
    ("|=", TokenKind::PipeEq),
    ("^=", TokenKind::CaretEq),
    ("%=", TokenKind::PercentEq),
    ("(", TokenKind::LParen),
    (")", TokenKind::RParen),
    ("{", TokenKind::LBrace),
    ("}", TokenKind::RBrace),
    ("[", TokenKind::LBracket),
    ("]", TokenKind::RBracket),
    (";", TokenKind::Semi),
    (",", TokenKind::Comma),
    (".", TokenKind::Dot),
    ("@", TokenKind::At),
    ("=", TokenKind::Assign),
    (">", TokenKind::Gt),
    ("<", TokenKind::Lt),
    ("!", TokenKind::Bang),
    ("~", TokenKind::Tilde),
    ("?", TokenKind::Question),
    (":", TokenKind::Colon),
    ("+", TokenKind::Plus),
    ("-", TokenKind::Minus),
    ("*", TokenKind::Star),
    ("/", TokenKind::Slash),
    ("&", TokenKind::Amp),
    ("|", TokenKind::Pipe),
    ("^", TokenKind::Caret),
    ("%", TokenKind::Percent),
];

impl TokenKind {
    /// The fixed spelling of a punctuator or keyword; `None` for identifiers, literals
    /// and end of input.
    pub fn fixed_text(self) -> Option<&'static str> {
        match self {
            TokenKind::Keyword(k) => Some(k.as_str()),
            TokenKind::Ident
            | TokenKind::Int { .. }
            | TokenKind::Float
            | TokenKind::Str(_)
            | TokenKind::Char(_)
            | TokenKind::Eof => None,
            p => PUNCT.iter().find(|(_, k)| *k == p).map(|(s, _)| *s),
        }
    }
}

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is.
    pub span: Span,
}

/// The lexer's output.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// The tokens, ending with exactly one [`TokenKind::Eof`].
    pub tokens: Vec<Token>,
    /// Decoded string literals, indexed by [`TokenKind::Str`].
    pub strings: Vec<String>,
    /// Lexical errors, in source order.
    pub diagnostics: Vec<Diagnostic>,
}
