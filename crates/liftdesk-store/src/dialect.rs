//! The store's SQL, written once in SQLite's dialect, as PostgreSQL reads
//! it: each statement text is rewritten the first time a PostgreSQL
//! connection prepares it (and kept, see `pg.rs`), so that the aggregates'
//! files keep one text per statement and both engines give the same
//! answers. What is rewritten, and why:
//! - parameters: `?1` → `$1`, a bare `?` → the next number (SQLite's rule);
//! - NULL's place in an order: SQLite puts NULL first going up and last
//!   going down, PostgreSQL the opposite: every `ORDER BY` term gets its
//!   explicit `NULLS FIRST` / `NULLS LAST` (the PostgreSQL indexes are
//!   declared the same way, so that they still serve the order);
//! - `x COLLATE FRANCAIS` (the French order of `text::french_order`):
//!   `fold(x) COLLATE "C", x COLLATE "C"`, the folded text then the exact
//!   one, byte by byte (`fold` is the SQL function of the PostgreSQL schema
//!   that folds like `text::fold`);
//! - `COLLATE NOCASE` → the schema's `liftdesk_nocase` collation;
//! - `LIKE` → `ILIKE` (SQLite's LIKE ignores case), `GLOB` → the schema's
//!   `#~#` operator (`!#~#` for `NOT GLOB`);
//! - `a IS b` / `a IS NOT b` between values (not NULL) → `IS NOT DISTINCT
//!   FROM` / `IS DISTINCT FROM`;
//! - `min(a, b)` / `max(a, b)` → `LEAST` / `GREATEST`; `IFNULL` →
//!   `COALESCE`; `instr` → `strpos`; `json_each(x)` (an array's values) →
//!   the schema's `liftdesk_json_each`; `CAST(… AS INTEGER)` → `BIGINT`,
//!   `AS REAL` → `DOUBLE PRECISION` (SQLite's integers are 64-bit);
//! - `INSERT OR IGNORE` → `INSERT … ON CONFLICT DO NOTHING`;
//! - a subquery in a FROM or a JOIN gets the name PostgreSQL wants;
//!   `INDEXED BY` (SQLite's index hint) goes.
//!
//! What cannot be rewritten word by word (a SQLite function without a
//! PostgreSQL twin, `rowid`) is written twice by its module, with
//! `Conn::dialect`. A statement this file does not know how to rewrite
//! (`INSERT OR REPLACE`) is refused when prepared, never run wrong.

use std::fmt::Write as _;

/// A token of SQL text.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A word: keyword, identifier or function name (no dots).
    Word(String),
    /// A number, a string literal, a quoted identifier, an operator: copied.
    Other(String),
    /// `?` or `?N`: the parameter's number, given by the tokenizer.
    Param(u32),
    Open,
    Close,
    Comma,
    Space,
}

fn tokenize(sql: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = sql.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut highest = 0u32;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            tokens.push(Token::Space);
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            tokens.push(Token::Space);
        } else if c == '\'' || c == '"' {
            // A literal or quoted identifier; a doubled quote is one quote.
            let start = i;
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(format!("guillemet non fermé dans : {sql}")),
                    Some(&q) if q == c => {
                        if chars.get(i + 1) == Some(&c) {
                            i += 2;
                        } else {
                            i += 1;
                            break;
                        }
                    }
                    Some(_) => i += 1,
                }
            }
            tokens.push(Token::Other(chars[start..i].iter().collect()));
        } else if c == '?' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let number = if i > start {
                let text: String = chars[start..i].iter().collect();
                text.parse::<u32>().map_err(|err| err.to_string())?
            } else {
                highest + 1
            };
            highest = highest.max(number);
            tokens.push(Token::Param(number));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            tokens.push(Token::Other(chars[start..i].iter().collect()));
        } else if c == '(' {
            i += 1;
            tokens.push(Token::Open);
        } else if c == ')' {
            i += 1;
            tokens.push(Token::Close);
        } else if c == ',' {
            i += 1;
            tokens.push(Token::Comma);
        } else {
            i += 1;
            tokens.push(Token::Other(c.to_string()));
        }
    }
    Ok(tokens)
}

fn is_word(token: Option<&Token>, word: &str) -> bool {
    matches!(token, Some(Token::Word(w)) if w.eq_ignore_ascii_case(word))
}

/// The index of the next token after `i` that is not a space.
fn next_solid(tokens: &[Token], i: usize) -> Option<usize> {
    (i + 1..tokens.len()).find(|&j| tokens[j] != Token::Space)
}

/// The index of the previous token before `i` that is not a space.
fn previous_solid(tokens: &[Token], i: usize) -> Option<usize> {
    (0..i).rev().find(|&j| tokens[j] != Token::Space)
}

/// Whether the parentheses at `open` hold a comma of their own.
fn has_top_level_comma(tokens: &[Token], open: usize) -> bool {
    let mut depth = 0;
    for token in &tokens[open..] {
        match token {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    return false;
                }
            }
            Token::Comma if depth == 1 => return true,
            _ => {}
        }
    }
    false
}

fn word(text: &str) -> Token {
    Token::Word(text.to_owned())
}

/// `sql` (SQLite's dialect) as PostgreSQL reads it.
pub(crate) fn to_postgres(sql: &str) -> Result<String, String> {
    let mut tokens = tokenize(sql)?;
    // Word by word.
    let mut insert_or_ignore = false;
    let mut i = 0;
    while i < tokens.len() {
        let Token::Word(w) = &tokens[i] else {
            i += 1;
            continue;
        };
        let upper = w.to_ascii_uppercase();
        let next = next_solid(&tokens, i);
        let next_is_open = next.is_some_and(|j| tokens[j] == Token::Open);
        match upper.as_str() {
            "INSERT" if next.is_some_and(|j| is_word(tokens.get(j), "OR")) => {
                let or = next.unwrap_or(i);
                let what = next_solid(&tokens, or);
                if what.is_some_and(|j| is_word(tokens.get(j), "IGNORE")) {
                    let end = what.unwrap_or(or);
                    tokens.drain(i + 1..=end);
                    insert_or_ignore = true;
                } else {
                    return Err(format!("INSERT OR … sans équivalent PostgreSQL : {sql}"));
                }
            }
            // SQLite's index hint: PostgreSQL's planner chooses alone.
            "INDEXED" if next.is_some_and(|j| is_word(tokens.get(j), "BY")) => {
                let by = next.unwrap_or(i);
                let end = next_solid(&tokens, by).unwrap_or(by);
                tokens.drain(i..=end);
                continue;
            }
            "IFNULL" if next_is_open => tokens[i] = word("COALESCE"),
            "INSTR" if next_is_open => tokens[i] = word("strpos"),
            "CHAR" if next_is_open && next.is_some_and(|j| !has_top_level_comma(&tokens, j)) => {
                tokens[i] = word("chr")
            }
            "JSON_EACH" if next_is_open => tokens[i] = word("liftdesk_json_each"),
            "MIN" | "MAX"
                if next_is_open && next.is_some_and(|j| has_top_level_comma(&tokens, j)) =>
            {
                tokens[i] = word(if upper == "MIN" { "LEAST" } else { "GREATEST" });
            }
            "LIKE" => tokens[i] = word("ILIKE"),
            "NOCASE"
                if previous_solid(&tokens, i)
                    .is_some_and(|j| is_word(tokens.get(j), "COLLATE")) =>
            {
                tokens[i] = word("liftdesk_nocase")
            }
            "GLOB" => {
                let before = previous_solid(&tokens, i);
                if before.is_some_and(|j| is_word(tokens.get(j), "NOT")) {
                    let not = before.unwrap_or(i);
                    tokens[not] = Token::Other("!#~#".to_owned());
                    tokens.remove(i);
                    continue;
                }
                tokens[i] = Token::Other("#~#".to_owned());
            }
            "INTEGER" | "REAL"
                if previous_solid(&tokens, i).is_some_and(|j| is_word(tokens.get(j), "AS")) =>
            {
                tokens[i] = word(if upper == "INTEGER" {
                    "BIGINT"
                } else {
                    "DOUBLE PRECISION"
                });
            }
            "IS" => {
                let Some(j) = next else {
                    i += 1;
                    continue;
                };
                if is_word(tokens.get(j), "NOT") {
                    let after = next_solid(&tokens, j);
                    let plain = after.is_some_and(|k| {
                        ["NULL", "TRUE", "FALSE", "DISTINCT"]
                            .iter()
                            .any(|w| is_word(tokens.get(k), w))
                    });
                    if !plain {
                        tokens.splice(
                            i..=j,
                            [
                                word("IS"),
                                Token::Space,
                                word("DISTINCT"),
                                Token::Space,
                                word("FROM"),
                            ],
                        );
                    }
                } else if !["NULL", "TRUE", "FALSE", "DISTINCT"]
                    .iter()
                    .any(|w| is_word(tokens.get(j), w))
                {
                    tokens.splice(
                        i..=i,
                        [
                            word("IS"),
                            Token::Space,
                            word("NOT"),
                            Token::Space,
                            word("DISTINCT"),
                            Token::Space,
                            word("FROM"),
                        ],
                    );
                }
            }
            _ => {}
        }
        i += 1;
    }
    let tokens = orders(aliased_subqueries(tokens));
    let mut out = String::with_capacity(sql.len() + 32);
    let mut returning_at = None;
    let mut depth = 0;
    for token in &tokens {
        match token {
            Token::Open => depth += 1,
            Token::Close => depth -= 1,
            Token::Word(w) if depth == 0 && w.eq_ignore_ascii_case("RETURNING") => {
                returning_at = Some(out.len());
            }
            _ => {}
        }
        write_token(&mut out, token);
    }
    if insert_or_ignore {
        let at = returning_at.unwrap_or_else(|| out.trim_end().trim_end_matches(';').len());
        out.insert_str(at, " ON CONFLICT DO NOTHING ");
    }
    Ok(out)
}

fn write_token(out: &mut String, token: &Token) {
    match token {
        Token::Word(w) | Token::Other(w) => out.push_str(w),
        Token::Param(n) => {
            let _ = write!(out, "${n}");
        }
        Token::Open => out.push('('),
        Token::Close => out.push(')'),
        Token::Comma => out.push(','),
        Token::Space => out.push(' '),
    }
}

/// Every subquery in a FROM or a JOIN with a name (PostgreSQL wants one,
/// SQLite does not): `FROM (SELECT …)` → `FROM (SELECT …) AS liftdesk_1`.
fn aliased_subqueries(mut tokens: Vec<Token>) -> Vec<Token> {
    let mut n = 0;
    let mut i = 0;
    while i < tokens.len() {
        let from = is_word(tokens.get(i), "FROM") || is_word(tokens.get(i), "JOIN");
        let open = next_solid(&tokens, i).filter(|&j| tokens[j] == Token::Open);
        let select = open.and_then(|j| next_solid(&tokens, j));
        if from
            && let (Some(open), Some(select)) = (open, select)
            && (is_word(tokens.get(select), "SELECT") || is_word(tokens.get(select), "WITH"))
            && let Some(close) = closing(&tokens, open)
        {
            let after = next_solid(&tokens, close);
            let named = after.is_some_and(|k| match &tokens[k] {
                Token::Word(w) => {
                    w.eq_ignore_ascii_case("AS")
                        || ![
                            "WHERE",
                            "GROUP",
                            "ORDER",
                            "LIMIT",
                            "OFFSET",
                            "UNION",
                            "JOIN",
                            "LEFT",
                            "INNER",
                            "CROSS",
                            "ON",
                            "HAVING",
                            "EXCEPT",
                            "INTERSECT",
                            "WINDOW",
                        ]
                        .iter()
                        .any(|kw| w.eq_ignore_ascii_case(kw))
                }
                _ => false,
            });
            if !named {
                n += 1;
                tokens.splice(
                    close + 1..close + 1,
                    [
                        Token::Space,
                        word("AS"),
                        Token::Space,
                        word(&format!("liftdesk_{n}")),
                    ],
                );
            }
        }
        i += 1;
    }
    tokens
}

/// The index of the parenthesis closing the one at `open`.
fn closing(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (j, token) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// Every `ORDER BY` of `tokens` with NULL's place said and the French
/// order spelled out.
fn orders(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len() + 16);
    let mut i = 0;
    while i < tokens.len() {
        let by = next_solid(&tokens, i);
        if is_word(tokens.get(i), "ORDER") && by.is_some_and(|j| is_word(tokens.get(j), "BY")) {
            let by = by.unwrap_or(i);
            out.extend(tokens[i..=by].iter().cloned());
            // The terms run to the end of the clause: a closing parenthesis
            // of the enclosing level, LIMIT, OFFSET, UNION, RETURNING, the
            // ON CONFLICT of an `INSERT … SELECT`, `;`, or the end.
            let mut depth = 0;
            let mut end = by + 1;
            while end < tokens.len() {
                match &tokens[end] {
                    Token::Open => depth += 1,
                    Token::Close if depth == 0 => break,
                    Token::Close => depth -= 1,
                    Token::Word(w)
                        if depth == 0
                            && ["LIMIT", "OFFSET", "UNION", "RETURNING", "ON"]
                                .iter()
                                .any(|k| w.eq_ignore_ascii_case(k)) =>
                    {
                        break;
                    }
                    Token::Other(o) if depth == 0 && o == ";" => break,
                    _ => {}
                }
                end += 1;
            }
            let clause = &tokens[by + 1..end];
            let mut terms: Vec<&[Token]> = Vec::new();
            let mut start = 0;
            let mut depth = 0;
            for (k, token) in clause.iter().enumerate() {
                match token {
                    Token::Open => depth += 1,
                    Token::Close => depth -= 1,
                    Token::Comma if depth == 0 => {
                        terms.push(&clause[start..k]);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            terms.push(&clause[start..]);
            for (n, term) in terms.iter().enumerate() {
                if n > 0 {
                    out.push(Token::Comma);
                }
                out.push(Token::Space);
                out.extend(order_term(term));
            }
            out.push(Token::Space);
            i = end;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

/// One term of an order: `expr [COLLATE FRANCAIS] [ASC|DESC] [NULLS …]`.
fn order_term(term: &[Token]) -> Vec<Token> {
    let mut solid: Vec<Token> = term.to_vec();
    while solid.first() == Some(&Token::Space) {
        solid.remove(0);
    }
    while solid.last() == Some(&Token::Space) {
        solid.pop();
    }
    if solid
        .iter()
        .any(|t| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case("NULLS")))
    {
        return solid;
    }
    let mut descending = false;
    if let Some(Token::Word(w)) = solid.last()
        && (w.eq_ignore_ascii_case("DESC") || w.eq_ignore_ascii_case("ASC"))
    {
        {
            descending = w.eq_ignore_ascii_case("DESC");
            solid.pop();
            while solid.last() == Some(&Token::Space) {
                solid.pop();
            }
        }
    }
    let direction = if descending {
        [
            word("DESC"),
            Token::Space,
            word("NULLS"),
            Token::Space,
            word("LAST"),
        ]
    } else {
        [
            word("ASC"),
            Token::Space,
            word("NULLS"),
            Token::Space,
            word("FIRST"),
        ]
    };
    let n = solid.len();
    let french =
        n >= 3 && is_word(solid.get(n - 1), "FRANCAIS") && is_word(solid.get(n - 3), "COLLATE");
    let mut out = Vec::new();
    if french {
        let mut expr = solid[..n - 3].to_vec();
        while expr.last() == Some(&Token::Space) {
            expr.pop();
        }
        out.push(word("fold"));
        out.push(Token::Open);
        out.extend(expr.iter().cloned());
        out.push(Token::Close);
        out.extend([
            Token::Space,
            word("COLLATE"),
            Token::Space,
            Token::Other("\"C\"".into()),
            Token::Space,
        ]);
        out.extend(direction.iter().cloned());
        out.push(Token::Comma);
        out.push(Token::Space);
        out.extend(expr);
        out.extend([
            Token::Space,
            word("COLLATE"),
            Token::Space,
            Token::Other("\"C\"".into()),
            Token::Space,
        ]);
        out.extend(direction);
    } else {
        out.extend(solid);
        out.push(Token::Space);
        out.extend(direction);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_postgres;

    fn pg(sql: &str) -> String {
        to_postgres(sql)
            .expect("rewritten")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn parameters_are_numbered_as_sqlite_numbers_them() {
        assert_eq!(
            pg("SELECT a FROM t WHERE b = ?1 AND c = ?2"),
            "SELECT a FROM t WHERE b = $1 AND c = $2"
        );
        assert_eq!(pg("VALUES (?, ?, ?)"), "VALUES ($1, $2, $3)");
        assert_eq!(pg("WHERE a = ?3 AND b = ?"), "WHERE a = $3 AND b = $4");
        // A question mark in a literal is text.
        assert_eq!(pg("SELECT 'a?b', ?1"), "SELECT 'a?b', $1");
        assert_eq!(pg("SELECT 'l''?', ?"), "SELECT 'l''?', $1");
    }

    #[test]
    fn orders_place_null_as_sqlite_does() {
        assert_eq!(
            pg("SELECT a FROM t ORDER BY a, b DESC LIMIT ?1"),
            "SELECT a FROM t ORDER BY a ASC NULLS FIRST, b DESC NULLS LAST LIMIT $1"
        );
        assert_eq!(
            pg(
                "SELECT (SELECT x FROM u ORDER BY y DESC LIMIT 1) FROM t ORDER BY coalesce(a, b) ASC"
            ),
            "SELECT (SELECT x FROM u ORDER BY y DESC NULLS LAST LIMIT 1) FROM t ORDER BY coalesce(a, b) ASC NULLS FIRST"
        );
        assert_eq!(
            pg("SELECT row_number() OVER (ORDER BY a) FROM t"),
            "SELECT row_number() OVER (ORDER BY a ASC NULLS FIRST ) FROM t"
        );
        assert_eq!(pg("ORDER BY a NULLS LAST"), "ORDER BY a NULLS LAST");
        assert_eq!(
            pg("INSERT INTO t SELECT a FROM u ORDER BY a ON CONFLICT (a) DO NOTHING"),
            "INSERT INTO t SELECT a FROM u ORDER BY a ASC NULLS FIRST ON CONFLICT (a) DO NOTHING"
        );
    }

    #[test]
    fn the_french_order_compares_folded_then_exact_texts() {
        assert_eq!(
            pg("SELECT 1 FROM t ORDER BY ac.name IS NULL, ac.name COLLATE FRANCAIS, ac.id"),
            "SELECT 1 FROM t ORDER BY ac.name IS NULL ASC NULLS FIRST, fold(ac.name) COLLATE \"C\" ASC NULLS FIRST, ac.name COLLATE \"C\" ASC NULLS FIRST, ac.id ASC NULLS FIRST"
        );
        assert_eq!(
            pg("ORDER BY name COLLATE FRANCAIS DESC"),
            "ORDER BY fold(name) COLLATE \"C\" DESC NULLS LAST, name COLLATE \"C\" DESC NULLS LAST"
        );
    }

    #[test]
    fn words_without_a_twin_are_replaced() {
        assert_eq!(pg("WHERE a LIKE ?1 || '%'"), "WHERE a ILIKE $1 || '%'");
        assert_eq!(pg("WHERE a NOT GLOB '*[^0-9]*'"), "WHERE a !#~# '*[^0-9]*'");
        assert_eq!(pg("WHERE a GLOB 'CLI-[0-9]*'"), "WHERE a #~# 'CLI-[0-9]*'");
        assert_eq!(
            pg("WHERE id IS NOT ?3 AND b IS NOT NULL"),
            "WHERE id IS DISTINCT FROM $1 AND b IS NOT NULL".replace("$1", "$3")
        );
        assert_eq!(
            pg("CASE WHEN t IS ?2 THEN 1 END"),
            "CASE WHEN t IS NOT DISTINCT FROM $2 THEN 1 END"
        );
        assert_eq!(
            pg("SELECT min(a, b), min(c), MAX(x, 1)"),
            "SELECT LEAST(a, b), min(c), GREATEST(x, 1)"
        );
        assert_eq!(
            pg("FROM d INDEXED BY d_pending JOIN s ON s.id = d.s"),
            "FROM d JOIN s ON s.id = d.s"
        );
        assert_eq!(
            pg("SELECT IFNULL(a, 0), instr(a, 'x')"),
            "SELECT COALESCE(a, 0), strpos(a, 'x')"
        );
        assert_eq!(
            pg("SELECT CAST(substr(r, 5) AS INTEGER)"),
            "SELECT CAST(substr(r, 5) AS BIGINT)"
        );
        assert_eq!(
            pg("WHERE a IN (SELECT value FROM json_each(?1))"),
            "WHERE a IN (SELECT value FROM liftdesk_json_each($1))"
        );
    }

    #[test]
    fn subqueries_in_from_get_a_name() {
        assert_eq!(
            pg("SELECT min(at) FROM (SELECT 1 AS at UNION ALL SELECT 2)"),
            "SELECT min(at) FROM (SELECT 1 AS at UNION ALL SELECT 2) AS liftdesk_1"
        );
        assert_eq!(
            pg("SELECT x FROM (SELECT 1 AS x) s WHERE x = 1"),
            "SELECT x FROM (SELECT 1 AS x) s WHERE x = 1"
        );
        assert_eq!(
            pg("SELECT * FROM a JOIN (SELECT 1 AS x) ON x = a.y"),
            "SELECT * FROM a JOIN (SELECT 1 AS x) AS liftdesk_1 ON x = a.y"
        );
        assert_eq!(
            pg("WHERE a IN (SELECT b FROM c)"),
            "WHERE a IN (SELECT b FROM c)"
        );
    }

    #[test]
    fn insert_or_ignore_does_nothing_on_conflict() {
        assert_eq!(
            pg("INSERT OR IGNORE INTO t (a) VALUES (?1)"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            pg("INSERT OR IGNORE INTO t (a) VALUES (?1) RETURNING a"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a"
        );
        assert!(super::to_postgres("INSERT OR REPLACE INTO t (a) VALUES (1)").is_err());
    }
}
