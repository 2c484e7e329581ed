//! Every folder of `src/` reads one way: no import circle among the files directly inside it.
//!
//! The check reads every `.rs` file of the crate's module tree (from `lib.rs`, following
//! `mod` declarations and `#[path]`), takes each file's references to other modules of the
//! crate — `use crate::…`, `use super::…`, `use self::…`, grouped `use a::{b, c}`, uniform
//! paths through a child module, and the same paths written inline in code — and maps each to
//! the file that defines the name (following `use` re-exports, globs included). Comments,
//! string literals, `#[cfg(test)]` items and `tests` modules are left out; test-support modules
//! (`conformance`, `old_logs`, a ruleset's `secrets`) are read like any other.
//!
//! Then, for each folder (a module with file submodules), its nodes are its child modules, each
//! with everything below it (a submodule's imports count as its parent's). A strongly connected
//! set of two or more nodes is a circle: the test fails naming its files and the paths that tie
//! them. The module's own file (`mod.rs`, `lib.rs`, or `x.rs` beside `x/`) is the folder's
//! entrance, where a reader starts: it declares and re-exports the children and assembles them
//! (a `Ruleset` impl, `Services`), so it is not a node; a name it defines itself and a child
//! imports is not counted either (a name it re-exports counts as the child's that defines it).
//!
//! It reads source text, not the compiler's name resolution: a name reached only through a
//! trait method or a type's inherent `impl` in another file is not seen, and a glob is followed
//! only to a module that visibly defines or imports the name.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// Folders whose circles are still being opened in other work; each must still hold a circle
/// (an entry whose folder reads one way fails, so the list only shrinks). Empty when every
/// folder of `src/` reads one way.
const NOT_YET_ONE_WAY: &[&str] = &[];

#[test]
fn no_folder_of_src_imports_itself_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = BTreeMap::new();
    read_rs_files(root, &root.join("src"), &mut files);
    let tree = Tree::read(&files, "src/lib.rs");
    let circles = tree.circles();
    let mut failures = String::new();
    for circle in &circles {
        if !NOT_YET_ONE_WAY.contains(&circle.folder.as_str()) {
            failures.push_str(&circle.to_string());
        }
    }
    for folder in NOT_YET_ONE_WAY {
        if !circles.iter().any(|c| c.folder == *folder) {
            let _ = writeln!(
                failures,
                "{folder} reads one way now: take it off NOT_YET_ONE_WAY in src/layout_tests.rs"
            );
        }
    }
    assert!(
        failures.is_empty(),
        "import circles inside a folder of src/:\n{failures}"
    );
    // The walk must have found the crate, or the check passes vacuously.
    assert!(
        tree.modules.len() > 100,
        "only {} modules read",
        tree.modules.len()
    );
}

fn read_rs_files(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_rs_files(root, &path, files);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let rel = path.strip_prefix(root).expect("under the root");
            files.insert(rel.to_string_lossy().replace('\\', "/"), text);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens: identifiers, `::`, string literals (kept for `#[path = "…"]`), single punctuation.
// Comments, whitespace, numbers, lifetimes and character literals are dropped.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Sep,
    Str(String),
    Punct(char),
}

impl Tok {
    fn is(&self, word: &str) -> bool {
        matches!(self, Tok::Ident(w) if w == word)
    }
    fn ident(&self) -> Option<&str> {
        match self {
            Tok::Ident(w) => Some(w),
            _ => None,
        }
    }
}

fn lex(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            let mut s = String::new();
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if let Some(&x) = c.get(i) {
                    s.push(x);
                }
                i += 1;
            }
            i += 1;
            out.push(Tok::Str(s));
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\u{1F600}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ident_char(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // Raw and byte strings: r"…", r#"…"#, b"…", br#"…"#.
            let raw = word == "r" || word == "br";
            if raw && matches!(c.get(i), Some('"') | Some('#')) {
                let mut hashes = 0;
                while c.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                if c.get(i) == Some(&'"') {
                    i += 1;
                    let mut s = String::new();
                    while i < c.len() {
                        if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                            i += 1 + hashes;
                            break;
                        }
                        s.push(c[i]);
                        i += 1;
                    }
                    out.push(Tok::Str(s));
                    continue;
                }
                // `r#ident`: a raw identifier.
                let start = i;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                out.push(Tok::Ident(c[start..i].iter().collect()));
                continue;
            }
            if word == "b" && next_is(&c, i, '"') {
                continue; // the string itself is read next
            }
            if word == "b" && next_is(&c, i, '\'') {
                continue;
            }
            if !word.starts_with(|x: char| x.is_ascii_digit()) {
                out.push(Tok::Ident(word));
            }
        } else if ch == ':' && next == Some(':') {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

fn next_is(c: &[char], i: usize, ch: char) -> bool {
    c.get(i) == Some(&ch)
}

/// The index just past the item that starts at `start` (after its attributes): its `;` at depth
/// 0, or the `}` that closes its first top-level block.
fn item_end(toks: &[Tok], start: usize) -> usize {
    let mut depth = 0i32;
    let mut i = start;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth <= 0 {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    toks.len()
}

/// The index just past the attribute `#[…]` starting at `i`, if one starts there.
fn attribute_end(toks: &[Tok], i: usize) -> Option<usize> {
    if toks.get(i) != Some(&Tok::Punct('#')) || toks.get(i + 1) != Some(&Tok::Punct('[')) {
        return None;
    }
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(i + 1) {
        match t {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn is_test_module(name: &str) -> bool {
    name == "tests" || name.ends_with("_tests")
}

/// The index of `mod` and its name, if the item at `i` (past attributes) is `[pub(…)] mod x`.
fn mod_item(toks: &[Tok], mut i: usize) -> Option<(usize, &str)> {
    if toks.get(i).is_some_and(|t| t.is("pub")) {
        i += 1;
        if toks.get(i) == Some(&Tok::Punct('(')) {
            while toks.get(i).is_some_and(|t| *t != Tok::Punct(')')) {
                i += 1;
            }
            i += 1;
        }
    }
    if toks.get(i).is_some_and(|t| t.is("mod")) {
        return toks.get(i + 1).and_then(Tok::ident).map(|name| (i, name));
    }
    None
}

/// Drops `#[cfg(test)]` items and `tests` modules; keeps `#[cfg(test)] mod x;` for test
/// support (only its attribute goes), so the module tree still reaches it.
fn drop_tests(toks: Vec<Tok>) -> Vec<Tok> {
    let cfg_test = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let is_cfg_test = toks[i..].starts_with(&cfg_test);
        let starts_test_mod = mod_item(&toks, i).is_some_and(|(_, name)| is_test_module(name))
            && !matches!(out.last(), Some(Tok::Sep));
        if is_cfg_test || starts_test_mod {
            let mut item = if is_cfg_test { i + cfg_test.len() } else { i };
            while let Some(end) = attribute_end(&toks, item) {
                item = end;
            }
            let declared = mod_item(&toks, item);
            let support_file = declared.is_some_and(|(m, name)| {
                !is_test_module(name) && toks.get(m + 2) == Some(&Tok::Punct(';'))
            });
            if is_cfg_test && support_file {
                i += cfg_test.len();
            } else {
                i = item_end(&toks, item);
            }
        } else {
            out.push(toks[i].clone());
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Modules: each file module and inline module, with what it declares, imports and names.

#[derive(Debug, Default)]
struct Module {
    /// Path from the crate root (`["rules", "registry"]`); empty for the root.
    path: Vec<String>,
    /// The file it is written in (`src/rules/registry.rs`).
    file: String,
    children: BTreeMap<String, usize>,
    /// Names brought in by `use` (alias or last segment) → the absolute path they name.
    imports: BTreeMap<String, Vec<String>>,
    /// `use x::*` → the absolute path of `x`.
    globs: Vec<Vec<String>>,
    /// Names defined here (fn, struct, enum, trait, type, const, static, union, macro).
    defines: BTreeSet<String>,
    /// Every path to something of the crate: as written, and in absolute form.
    refs: Vec<(String, Vec<String>)>,
    /// Its own tokens (without inline modules), read into the fields above.
    toks: Vec<Tok>,
}

#[derive(Debug)]
struct Tree {
    modules: Vec<Module>,
}

struct Pending {
    index: usize,
    toks: Vec<Tok>,
    /// Where `mod x;` looks for `x.rs` and `x/mod.rs`.
    child_dir: String,
    /// Where `#[path = "…"]` is relative to.
    file_dir: String,
}

fn dir_of(file: &str) -> String {
    file.rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_string())
}

fn join(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

/// The `#[path = "…"]` just before a `mod` item, if any (`own` ends at the `mod` keyword).
fn path_attribute(own: &[Tok]) -> Option<String> {
    let mut k = own.len();
    // Step back over `pub`, `pub(crate)`, `pub(super)`, `pub(in …)`.
    if k > 0 && own[k - 1] == Tok::Punct(')') {
        while k > 0 && own[k - 1] != Tok::Punct('(') {
            k -= 1;
        }
        k = k.saturating_sub(1);
    }
    if k > 0 && own[k - 1].is("pub") {
        k -= 1;
    }
    // Attributes, last first: `# [ path = "…" ]` or any other `#[…]`.
    while k >= 2 && own[k - 1] == Tok::Punct(']') {
        let mut open = k - 1;
        while open > 0 && own[open] != Tok::Punct('[') {
            open -= 1;
        }
        if open == 0 || own[open - 1] != Tok::Punct('#') {
            return None;
        }
        if let [Tok::Ident(word), Tok::Punct('='), Tok::Str(rel)] = &own[open + 1..k - 1]
            && word == "path"
        {
            return Some(rel.clone());
        }
        k = open - 1;
    }
    None
}

/// One leaf of a `use` tree: a named import (with the name it binds) or a glob.
#[derive(Debug, PartialEq)]
enum Leaf {
    Named(Vec<String>, String),
    Glob(Vec<String>),
}

fn use_tree(toks: &[Tok], pos: &mut usize, mut path: Vec<String>, out: &mut Vec<Leaf>) {
    if toks.get(*pos) == Some(&Tok::Sep) {
        path.push("::".into()); // `use ::x` names an external crate
        *pos += 1;
    }
    loop {
        match toks.get(*pos) {
            Some(Tok::Ident(w)) if w != "as" => {
                path.push(w.clone());
                *pos += 1;
                if toks.get(*pos) == Some(&Tok::Sep) {
                    *pos += 1;
                    continue;
                }
                break;
            }
            Some(Tok::Punct('*')) => {
                *pos += 1;
                out.push(Leaf::Glob(path));
                return;
            }
            Some(Tok::Punct('{')) => {
                *pos += 1;
                while *pos < toks.len() && toks[*pos] != Tok::Punct('}') {
                    let before = *pos;
                    use_tree(toks, pos, path.clone(), out);
                    if toks.get(*pos) == Some(&Tok::Punct(',')) {
                        *pos += 1;
                    }
                    if *pos == before {
                        *pos += 1; // something this reader does not know: step over it
                    }
                }
                *pos += 1;
                return;
            }
            _ => break,
        }
    }
    let mut alias = None;
    if toks.get(*pos).is_some_and(|t| t.is("as")) {
        alias = toks.get(*pos + 1).and_then(Tok::ident).map(str::to_string);
        *pos += 2;
    }
    if path.last().is_some_and(|l| l == "self") {
        path.pop();
    }
    if let Some(last) = path.last().cloned() {
        out.push(Leaf::Named(path, alias.unwrap_or(last)));
    }
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

impl Tree {
    /// Reads the module tree from `root` (a key of `files`, e.g. `src/lib.rs`).
    fn read(files: &BTreeMap<String, String>, root: &str) -> Tree {
        let mut tree = Tree {
            modules: vec![Module {
                file: root.to_string(),
                ..Module::default()
            }],
        };
        let mut queue = vec![Pending {
            index: 0,
            toks: drop_tests(lex(&files[root])),
            child_dir: dir_of(root),
            file_dir: dir_of(root),
        }];
        while let Some(p) = queue.pop() {
            tree.split_children(p, files, &mut queue);
        }
        for index in 0..tree.modules.len() {
            tree.read_names(index);
        }
        tree
    }

    fn add(&mut self, parent: usize, path: Vec<String>, file: String) -> usize {
        let index = self.modules.len();
        let name = path.last().cloned().unwrap_or_default();
        self.modules.push(Module {
            path,
            file,
            ..Module::default()
        });
        self.modules[parent].children.insert(name, index);
        index
    }

    /// Registers the `mod` items of a module (file ones queued, inline ones read now) and keeps
    /// the module's own tokens, without its inline modules.
    fn split_children(
        &mut self,
        p: Pending,
        files: &BTreeMap<String, String>,
        queue: &mut Vec<Pending>,
    ) {
        let toks = p.toks;
        let mut own = Vec::with_capacity(toks.len());
        let mut depth = 0;
        let mut i = 0;
        while i < toks.len() {
            if depth == 0
                && toks[i].is("mod")
                && !matches!(own.last(), Some(Tok::Sep))
                && let Some(name) = toks.get(i + 1).and_then(Tok::ident)
            {
                let name = name.to_string();
                let mut path = self.modules[p.index].path.clone();
                path.push(name.clone());
                let file = self.modules[p.index].file.clone();
                if toks.get(i + 2) == Some(&Tok::Punct(';')) {
                    let declared = path_attribute(&own);
                    let candidates = match &declared {
                        Some(rel) => vec![join(&p.file_dir, rel)],
                        None => vec![
                            join(&p.child_dir, &format!("{name}.rs")),
                            join(&p.child_dir, &format!("{name}/mod.rs")),
                        ],
                    };
                    if let Some(found) = candidates.into_iter().find(|f| files.contains_key(f)) {
                        let index = self.add(p.index, path, found.clone());
                        let mod_rs = declared.is_some() || found.ends_with("/mod.rs");
                        let child_dir = if mod_rs {
                            dir_of(&found)
                        } else {
                            found.trim_end_matches(".rs").to_string()
                        };
                        queue.push(Pending {
                            index,
                            toks: drop_tests(lex(&files[&found])),
                            child_dir,
                            file_dir: dir_of(&found),
                        });
                    }
                    own.extend_from_slice(&toks[i..i + 3]);
                    i += 3;
                    continue;
                }
                if toks.get(i + 2) == Some(&Tok::Punct('{')) {
                    let end = item_end(&toks, i);
                    let index = self.add(p.index, path, file);
                    let inline = Pending {
                        index,
                        toks: toks[i + 3..end - 1].to_vec(),
                        child_dir: format!("{}/{name}", p.child_dir),
                        file_dir: p.file_dir.clone(),
                    };
                    self.split_children(inline, files, queue);
                    i = end;
                    continue;
                }
            }
            match toks[i] {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
            own.push(toks[i].clone());
            i += 1;
        }
        self.modules[p.index].toks = own;
    }

    /// A path as written in module `m`, made absolute; `None` when it leaves the crate.
    fn absolute(&self, m: usize, path: &[String]) -> Option<Vec<String>> {
        let module = &self.modules[m];
        let first = path.first()?;
        match first.as_str() {
            "crate" => Some(path[1..].to_vec()),
            "self" => Some([&module.path[..], &path[1..]].concat()),
            "super" => {
                let mut base = module.path.clone();
                let mut k = 0;
                while path.get(k).is_some_and(|s| s == "super") {
                    base.pop()?;
                    k += 1;
                }
                Some([&base[..], &path[k..]].concat())
            }
            _ if module.children.contains_key(first) => Some([&module.path[..], path].concat()),
            _ => None,
        }
    }

    fn read_names(&mut self, m: usize) {
        let toks = std::mem::take(&mut self.modules[m].toks);
        let mut imports = BTreeMap::new();
        let mut globs = Vec::new();
        let mut defines = BTreeSet::new();
        let mut refs = Vec::new();
        let mut rest = Vec::with_capacity(toks.len());
        let mut depth = 0;
        let mut i = 0;
        while i < toks.len() {
            let after_sep = i > 0 && toks[i - 1] == Tok::Sep;
            if toks[i].is("use") && !after_sep {
                let mut pos = i + 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut pos, Vec::new(), &mut leaves);
                for leaf in leaves {
                    let (written, name) = match &leaf {
                        Leaf::Named(p, name) => (p, Some(name)),
                        Leaf::Glob(p) => (p, None),
                    };
                    let Some(abs) = self.absolute(m, written) else {
                        continue;
                    };
                    refs.push((written.join("::"), abs.clone()));
                    if depth == 0 {
                        match name {
                            Some(name) => {
                                imports.insert(name.clone(), abs);
                            }
                            None => globs.push(abs),
                        }
                    }
                }
                i = item_end(&toks, i);
                continue;
            }
            if depth == 0
                && let Tok::Ident(word) = &toks[i]
                && let Some(Tok::Ident(name)) = toks.get(i + 1)
                && (ITEM_KEYWORDS.contains(&word.as_str()))
            {
                defines.insert(name.clone());
            }
            if toks[i].is("macro_rules")
                && let Some(Tok::Ident(name)) = toks.get(i + 2)
            {
                defines.insert(name.clone());
            }
            match toks[i] {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
            rest.push(toks[i].clone());
            i += 1;
        }
        // Inline paths: `crate::a::b`, `super::x`, `self::x`, `child::x` outside `use`.
        let mut i = 0;
        while i < rest.len() {
            let starts = matches!(rest[i], Tok::Ident(_))
                && (i == 0 || rest[i - 1] != Tok::Sep)
                && rest.get(i + 1) == Some(&Tok::Sep)
                && matches!(rest.get(i + 2), Some(Tok::Ident(_)));
            if !starts {
                i += 1;
                continue;
            }
            let mut path = Vec::new();
            while let Some(Tok::Ident(w)) = rest.get(i) {
                path.push(w.clone());
                if rest.get(i + 1) == Some(&Tok::Sep)
                    && matches!(rest.get(i + 2), Some(Tok::Ident(_)))
                {
                    i += 2;
                } else {
                    i += 1;
                    break;
                }
            }
            if let Some(abs) = self.absolute(m, &path) {
                refs.push((path.join("::"), abs));
            }
        }
        let module = &mut self.modules[m];
        module.imports = imports;
        module.globs = globs;
        module.defines = defines;
        module.refs = refs;
    }

    fn find(&self, path: &[String]) -> Option<usize> {
        let mut cur = 0;
        for seg in path {
            cur = *self.modules[cur].children.get(seg)?;
        }
        Some(cur)
    }

    /// Whether module `m` visibly has `name`: a child, a definition or an import.
    fn has(&self, m: usize, name: &str) -> bool {
        let module = &self.modules[m];
        module.children.contains_key(name)
            || module.defines.contains(name)
            || module.imports.contains_key(name)
    }

    /// The module that defines what an absolute path names, following imports and globs.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let mut cur = 0;
        for (k, seg) in path.iter().enumerate() {
            let module = &self.modules[cur];
            if let Some(&child) = module.children.get(seg) {
                cur = child;
                continue;
            }
            if hops > 12 || module.defines.contains(seg) {
                return Some(cur);
            }
            if let Some(target) = module.imports.get(seg) {
                let onward = [&target[..], &path[k + 1..]].concat();
                return self.resolve(&onward, hops + 1).or(Some(cur));
            }
            for glob in &module.globs {
                if let Some(g) = self.find(glob)
                    && g != cur
                    && self.has(g, seg)
                {
                    let onward = [&glob[..], &path[k..]].concat();
                    return self.resolve(&onward, hops + 1).or(Some(cur));
                }
            }
            return Some(cur);
        }
        Some(cur)
    }

    /// Every reference from one file to another: (from file, to file, path as written).
    fn edges(&self) -> BTreeSet<(String, String, String)> {
        let mut edges = BTreeSet::new();
        for module in &self.modules {
            for (written, abs) in &module.refs {
                if let Some(target) = self.resolve(abs, 0) {
                    let to = &self.modules[target].file;
                    if *to != module.file {
                        edges.insert((module.file.clone(), to.clone(), written.clone()));
                    }
                }
            }
        }
        edges
    }

    /// Each folder (from the crate's root) with its graph: child → child → what ties them.
    fn folders(&self) -> Vec<(String, Graph)> {
        let edges = self.edges();
        // Each file's own module path (the shortest among the modules written in it).
        let mut file_path: BTreeMap<&str, &[String]> = BTreeMap::new();
        for module in &self.modules {
            let e = file_path
                .entry(module.file.as_str())
                .or_insert(&module.path);
            if module.path.len() < e.len() {
                *e = &module.path;
            }
        }
        let mut folders = Vec::new();
        for folder in &self.modules {
            let has_files = folder
                .children
                .values()
                .any(|&c| self.modules[c].file != folder.file);
            if !has_files {
                continue;
            }
            let dir = if folder.file.ends_with("/mod.rs") || folder.path.is_empty() {
                dir_of(&folder.file)
            } else {
                folder.file.trim_end_matches(".rs").to_string()
            };
            let relative = |file: &str| -> String {
                match file.strip_prefix(&format!("{dir}/")) {
                    Some(rel) => rel.to_string(),
                    None => file.rsplit('/').next().unwrap_or(file).to_string(),
                }
            };
            let node_of = |file: &str| -> Option<String> {
                let path = file_path.get(file)?;
                if !path.starts_with(&folder.path) {
                    return None;
                }
                match path.get(folder.path.len()) {
                    None => None,
                    Some(child) => {
                        let c = folder.children.get(child)?;
                        Some(relative(&self.modules[*c].file))
                    }
                }
            };
            let mut graph = Graph::new();
            for (from, to, written) in &edges {
                if let (Some(a), Some(b)) = (node_of(from), node_of(to))
                    && a != b
                {
                    let tie = format!("{} uses {written}", relative(from));
                    graph
                        .entry(a)
                        .or_default()
                        .entry(b)
                        .or_default()
                        .insert(tie);
                }
            }
            folders.push((dir, graph));
        }
        folders
    }

    /// The circles inside every folder, folder by folder.
    fn circles(&self) -> Vec<Circle> {
        let mut circles = Vec::new();
        for (folder, graph) in self.folders() {
            for component in strongly_connected(&graph) {
                let mut ties = BTreeMap::new();
                for a in &component {
                    for (b, names) in &graph[a] {
                        if component.contains(b) {
                            ties.insert((a.clone(), b.clone()), names.clone());
                        }
                    }
                }
                circles.push(Circle {
                    folder: folder.clone(),
                    files: component,
                    ties,
                });
            }
        }
        circles
    }
}

/// A folder's graph: a child's file → the child files it names → what it names there.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Strongly connected sets of two or more nodes (Tarjan).
fn strongly_connected(graph: &Graph) -> Vec<BTreeSet<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            if let Some(next) = self.graph.get(v) {
                for w in next.keys() {
                    let w = w.as_str();
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let low = self.low[v].min(self.low[w]);
                        self.low.insert(v, low);
                    } else if self.on_stack.contains(w) {
                        let low = self.low[v].min(self.index[w]);
                        self.low.insert(v, low);
                    }
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = BTreeSet::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

#[derive(Debug)]
struct Circle {
    /// The folder, from the crate's root (`src/rules/gnomes_and_wizards`).
    folder: String,
    /// Its files (a child module's own file stands for everything below it).
    files: BTreeSet<String>,
    /// (from, to) → what `from` names in `to`, file by file.
    ties: BTreeMap<(String, String), BTreeSet<String>>,
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<&str> = self.files.iter().map(String::as_str).collect();
        writeln!(f, "{}: a circle through {}", self.folder, files.join(", "))?;
        for ((from, to), names) in &self.ties {
            let shown: Vec<&str> = names.iter().take(4).map(String::as_str).collect();
            let more = names.len().saturating_sub(shown.len());
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            writeln!(f, "  {from} → {to}: {}{more}", shown.join("; "))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// The check itself, on made-up trees.

fn circles_of(files: &[(&str, &str)]) -> Vec<Circle> {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    Tree::read(&files, "src/lib.rs").circles()
}

fn files_of(circle: &Circle) -> Vec<&str> {
    circle.files.iter().map(String::as_str).collect()
}

#[test]
fn two_files_that_import_each_other_are_a_circle_named_with_what_ties_them() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::Bee;\npub struct Ant;\n"),
        ("src/b.rs", "pub struct Bee(crate::a::Ant);\n"),
    ]);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].folder, "src");
    assert_eq!(files_of(&circles[0]), ["a.rs", "b.rs"]);
    let shown = circles[0].to_string();
    assert!(
        shown.contains("a.rs → b.rs: a.rs uses crate::b::Bee"),
        "{shown}"
    );
    assert!(
        shown.contains("b.rs → a.rs: b.rs uses crate::a::Ant"),
        "{shown}"
    );
}

#[test]
fn a_tree_read_one_way_passes() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use a::Ant;\n"),
        (
            "src/a.rs",
            "use crate::{b::Bee, c};\npub struct Ant(Bee, c::Cat);\n",
        ),
        ("src/b.rs", "use super::c::Cat;\npub struct Bee(Cat);\n"),
        ("src/c.rs", "pub struct Cat;\n"),
    ]);
    assert!(circles.is_empty(), "{circles:?}");
}

#[test]
fn grouped_uses_and_super_super_are_resolved_to_the_file_that_defines_the_name() {
    // deep/inner.rs reaches x.rs through `super::super`, inside a group; x.rs uses deep/mod.rs.
    // y.rs is only used, so it stays out of the circle.
    let circles = circles_of(&[
        ("src/lib.rs", "pub mod g;\n"),
        ("src/g/mod.rs", "mod deep;\nmod x;\nmod y;\n"),
        ("src/g/deep/mod.rs", "mod inner;\npub struct Deep;\n"),
        (
            "src/g/deep/inner.rs",
            "use super::super::{x::{self, Ex}, y::Why};\nfn f(_: x::Ex) {}\n",
        ),
        ("src/g/x.rs", "pub struct Ex(super::deep::Deep);\n"),
        ("src/g/y.rs", "pub struct Why;\n"),
    ]);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].folder, "src/g");
    assert_eq!(files_of(&circles[0]), ["deep/mod.rs", "x.rs"]);
    let shown = circles[0].to_string();
    assert!(
        shown.contains("deep/inner.rs uses super::super::x::Ex"),
        "{shown}"
    );
    assert!(shown.contains("x.rs uses super::deep::Deep"), "{shown}");
}

#[test]
fn a_name_reached_through_a_re_export_or_a_glob_counts_for_the_file_that_defines_it() {
    // a.rs names `super::Bee`, which the root re-exports from b.rs (through a glob for `Cat`).
    let re_exported = circles_of(&[
        (
            "src/lib.rs",
            "mod a;\nmod b;\nmod c;\npub use b::Bee;\npub use c::*;\n",
        ),
        ("src/a.rs", "pub struct Ant;\nfn f(_: super::Bee) {}\n"),
        ("src/b.rs", "pub struct Bee(crate::a::Ant);\n"),
        ("src/c.rs", "pub struct Cat(crate::Ant);\n"),
    ]);
    assert_eq!(re_exported.len(), 1, "{re_exported:?}");
    assert_eq!(files_of(&re_exported[0]), ["a.rs", "b.rs"]);

    let through_a_glob = circles_of(&[
        ("src/lib.rs", "mod a;\nmod c;\npub use c::*;\n"),
        ("src/a.rs", "pub struct Ant;\nfn f(_: crate::Cat) {}\n"),
        ("src/c.rs", "pub struct Cat(crate::a::Ant);\n"),
    ]);
    assert_eq!(through_a_glob.len(), 1, "{through_a_glob:?}");
    assert_eq!(files_of(&through_a_glob[0]), ["a.rs", "c.rs"]);
}

#[test]
fn comments_strings_and_tests_do_not_count() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n"),
        (
            "src/a.rs",
            "// use crate::b::Bee;\n/* crate::b::Bee /* nested */ */\n/// See [`crate::b::Bee`].\n\
             const S: &str = \"crate::b::Bee\";\nconst R: &str = r#\"use crate::b::Bee;\"#;\n\
             const C: char = '\"';\nfn life<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\nmod unit {\n    use crate::b::Bee;\n}\n\
             #[cfg(test)]\nfn helper() -> crate::b::Bee { crate::b::Bee }\n\
             #[cfg(test)]\nuse crate::b::Bee;\npub struct Ant;\n",
        ),
        ("src/b.rs", "pub struct Bee(crate::a::Ant);\n"),
        ("src/tests.rs", "use crate::a::Ant;\nuse crate::b::Bee;\n"),
    ]);
    assert!(circles.is_empty(), "{circles:?}");
}

#[test]
fn inline_paths_uniform_paths_and_path_attributes_count() {
    // `child::x` from the parent and `#[path]` files are followed; a file reached only by
    // `#[path]` still counts in the folder named after its module.
    let circles = circles_of(&[
        ("src/lib.rs", "pub mod suite;\n"),
        (
            "src/suite.rs",
            "#[path = \"suite/one.rs\"]\nmod one;\n#[path = \"suite/two.rs\"]\nmod two;\n",
        ),
        (
            "src/suite/one.rs",
            "pub fn one() { two::helper(); }\nuse super::two;\n",
        ),
        (
            "src/suite/two.rs",
            "pub fn helper() {}\nfn back() { super::one::one() }\n",
        ),
    ]);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].folder, "src/suite");
    assert_eq!(files_of(&circles[0]), ["one.rs", "two.rs"]);
}

#[test]
fn a_submodule_counts_for_its_parent_and_the_entrance_file_is_not_a_node() {
    // p/q.rs uses r.rs and r.rs uses p (its mod.rs): p and r are in a circle in src/. Inside
    // p/, mod.rs using q.rs and q.rs using a name mod.rs defines is the entrance, not a circle.
    let circles = circles_of(&[
        ("src/lib.rs", "mod p;\nmod r;\n"),
        ("src/p/mod.rs", "mod q;\npub struct Pea(q::Queue);\n"),
        (
            "src/p/q.rs",
            "pub struct Queue;\nfn f(_: crate::r::Rye, _: &super::Pea) {}\n",
        ),
        ("src/r.rs", "pub struct Rye;\nfn g(_: crate::p::Pea) {}\n"),
    ]);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].folder, "src");
    assert_eq!(files_of(&circles[0]), ["p/mod.rs", "r.rs"]);
    assert!(circles[0].to_string().contains("p/q.rs uses crate::r::Rye"));
}

/// The folder map of `docs/LAYOUT.md` (its code block: one path a line, first word) against
/// the tree: every folder and file directly in `src/` and every folder of the repository
/// (`.ci` included, other hidden ones and `target` left out) is named, and nothing named is
/// missing.
#[test]
fn the_folder_map_of_docs_layout_matches_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/LAYOUT.md")).expect("docs/LAYOUT.md");
    let block = map
        .split("```")
        .nth(1)
        .expect("docs/LAYOUT.md has a code block with the map");
    let named: BTreeSet<String> = block
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|first| first.contains('/'))
        .map(|first| first.trim_end_matches('/').to_owned())
        .collect();
    let mut there = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("src")).expect("src/").flatten() {
        there.insert(format!("src/{}", entry.file_name().to_string_lossy()));
    }
    for entry in std::fs::read_dir(root).expect("the repository").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if folder && name != "src" && name != "target" && (!name.starts_with('.') || name == ".ci")
        {
            there.insert(name);
        }
    }
    // The map may name deeper paths too (`tests/api`); those must exist.
    let missing: Vec<&String> = there
        .iter()
        .filter(|p| {
            !named
                .iter()
                .any(|n| n == *p || n.starts_with(&format!("{p}/")))
        })
        .collect();
    let stale: Vec<&String> = named.iter().filter(|n| !root.join(n).exists()).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/LAYOUT.md's map and the tree differ: not in the map: {missing:?}; in the map \
         but not in the tree: {stale:?}"
    );
}
