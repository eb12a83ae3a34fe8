//! Reading SGF text: the tokenizer and the parser that keeps the main line (or the whole tree)
//! of the first game, with the properties the engine uses and the limits that keep a hostile
//! file's memory bounded. It knows nothing of boards or rules: [`super`] turns the nodes into a
//! game.

use super::{err, escape, quoted, SgfError};

/// The properties the reader uses; every other one is skipped as it is read.
pub const USED: &[&str] = &[
    "GM", "SZ", "RU", "KM", "HA", "AB", "AW", "AE", "PL", "B", "W", "RM", "C",
];

/// Properties with a list of points: all their values are kept. Of the others only the first
/// value counts.
const POINT_LISTS: &[&str] = &["AB", "AW", "AE"];

/// The most setup points (`AB`, `AW`, `AE` values) a record may list: a hundred whole 25×25
/// boards, far beyond any real record, so that a file of millions of them is refused while it
/// is read.
pub const MAX_SETUP_POINTS: usize = 62_500;

/// One node: the properties of [`USED`] it holds, in file order, each with its values (escapes
/// resolved).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub props: Vec<(&'static str, Vec<String>)>,
}

impl Node {
    /// The values of property `id`, if present.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of property `id`.
    pub fn first(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|v| v.first()).map(|s| s.as_str())
    }
}

/// Whether the tree being read lies on the main line, and whether it has had a variation yet
/// (only the first one continues the main line).
struct Frame {
    main: bool,
    had_child: bool,
}

/// The most nodes a main line may have: the root, then for each move of the longest game a
/// [`Game`] holds its node and room for one node without a move. A longer record is refused
/// while it is read, before its nodes take hundreds of bytes each.
pub const MAX_MAIN_LINE_NODES: usize = 1 + 2 * crate::game::MAX_MOVES;

/// The most nodes a whole [`Tree`] may have, variations included: no more than a main line
/// may, so that a tool holding a record's whole tree holds no more nodes than the longest game.
pub const MAX_TREE_NODES: usize = MAX_MAIN_LINE_NODES;

/// The most properties and property values, counted together, a whole [`Tree`] may keep: a
/// game of [`crate::game::MAX_MOVES`] moves with a comment on every move fits, a file of
/// millions of small properties (each taking a few hundred bytes once kept) does not.
pub const MAX_TREE_ITEMS: usize = 500_000;

/// From this many properties in one node, a [`Tree`]'s node finds a repeated property by a
/// hash map instead of a walk over the node, so that a node of a million properties is read in
/// time in proportion to it.
const INDEXED_PROPERTIES: usize = 16;

/// The main line of a record's first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// The nodes from the root on.
    pub nodes: Vec<Node>,
    /// The file ended inside the game: `nodes` are its complete nodes up to there.
    pub cut_short: bool,
}

/// What reading a node found.
enum NodeRead {
    /// The node (the properties of [`USED`]), every property when all are kept, and where the
    /// node ends.
    Node(Node, Vec<Property>, usize),
    /// The text ended inside the node.
    CutShort,
}

/// Which properties a node read keeps.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Keep {
    /// None: the node is only skipped.
    Nothing,
    /// Those of [`USED`], as [`Node`] holds them.
    Used,
    /// Every property with all its values, as [`Property`] lists hold them.
    All,
}

/// One property of a node as the file gives it: its identifier (upper-case letters only, as
/// FF[4] reads FF[3]'s long names) and its values, escapes resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

/// The reader's position in the text, and the setup points and (every property kept) the
/// properties and values kept so far.
struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    setup_points: usize,
    items: usize,
}

impl Reader<'_> {
    /// The length of the white-space character at `i`, if there is one.
    fn space_at(&self, i: usize) -> Option<usize> {
        let b = *self.bytes.get(i)?;
        if b.is_ascii() {
            return b.is_ascii_whitespace().then_some(1);
        }
        let c = self.text.get(i..)?.chars().next()?;
        c.is_whitespace().then(|| c.len_utf8())
    }

    fn skip_space(&self, mut i: usize) -> usize {
        while let Some(n) = self.space_at(i) {
            i += n;
        }
        i
    }

    /// The character at `i`, for messages.
    fn char_at(&self, i: usize) -> char {
        self.text
            .get(i..)
            .and_then(|t| t.chars().next())
            .unwrap_or(' ')
    }

    /// Reads the properties of a node starting after its `;`, keeping those of [`USED`] (all
    /// values of a point list, the first of any other); a property repeated in the node (seen
    /// in some files) adds to the first. `keep` false reads the node only to skip it.
    fn node(&mut self, mut i: usize, keep: Keep) -> Result<NodeRead, SgfError> {
        let mut node = Node::default();
        let mut all: Vec<Property> = Vec::new();
        // `all`'s indices by identifier, once the node has many properties.
        let mut index: std::collections::HashMap<String, usize> = Default::default();
        let n = self.bytes.len();
        let mut properties = 0;
        loop {
            i = self.skip_space(i);
            // A node the text ends in before any property may have lost them all.
            if i >= n && properties == 0 {
                return Ok(NodeRead::CutShort);
            }
            if i >= n || matches!(self.bytes[i], b';' | b'(' | b')') {
                return Ok(NodeRead::Node(node, all, i));
            }
            properties += 1;
            // Property identifier: upper-case letters count, lower-case ones are ignored (FF[3]).
            let mut id = [0u8; 8];
            let mut len = 0;
            let mut long = false;
            let mut full_id = String::new();
            while i < n && self.bytes[i].is_ascii_alphabetic() {
                if self.bytes[i].is_ascii_uppercase() {
                    if len < id.len() {
                        id[len] = self.bytes[i];
                    } else {
                        long = true;
                    }
                    if keep == Keep::All {
                        full_id.push(self.bytes[i] as char);
                    }
                    len += 1;
                }
                i += 1;
            }
            if len == 0 {
                if i >= n {
                    return Ok(NodeRead::CutShort);
                }
                return err(format!(
                    "expected a property name, found '{}'",
                    quoted(&self.char_at(i).to_string())
                ));
            }
            let name = std::str::from_utf8(&id[..len.min(id.len())]).unwrap_or("");
            let used = if long || keep != Keep::Used {
                None
            } else {
                USED.iter().copied().find(|&u| u == name)
            };
            let list = used.is_some_and(|u| POINT_LISTS.contains(&u))
                || (keep == Keep::All && POINT_LISTS.contains(&full_id.as_str()));
            let slot = used.map(|u| match node.props.iter().position(|(k, _)| *k == u) {
                Some(k) => k,
                None => {
                    node.props.push((u, Vec::new()));
                    node.props.len() - 1
                }
            });
            // Every property kept: a repeated one adds to the first, as in `node.props`.
            if keep == Keep::All {
                self.kept_item()?;
            }
            let all_slot = (keep == Keep::All).then(|| {
                if all.len() >= INDEXED_PROPERTIES && index.is_empty() {
                    index.extend(all.iter().enumerate().map(|(k, p)| (p.id.clone(), k)));
                }
                let found = if index.is_empty() {
                    all.iter().position(|p| p.id == full_id)
                } else {
                    index.get(&full_id).copied()
                };
                found.unwrap_or_else(|| {
                    if !index.is_empty() {
                        index.insert(full_id.clone(), all.len());
                    }
                    all.push(Property {
                        id: std::mem::take(&mut full_id),
                        values: Vec::new(),
                    });
                    all.len() - 1
                })
            });
            let mut values = 0;
            loop {
                i = self.skip_space(i);
                if i >= n && values == 0 {
                    return Ok(NodeRead::CutShort);
                }
                if i >= n || self.bytes[i] != b'[' {
                    break;
                }
                let wanted = slot.filter(|&k| list || node.props[k].1.is_empty());
                let Some((value, next)) = self.value(i + 1, wanted.is_some() || all_slot.is_some())
                else {
                    return Ok(NodeRead::CutShort);
                };
                if let Some(v) = value {
                    if list {
                        self.setup_points += 1;
                        if self.setup_points > MAX_SETUP_POINTS {
                            return err(format!("more than {} setup points", MAX_SETUP_POINTS));
                        }
                    }
                    match (wanted, all_slot) {
                        (Some(k), _) => node.props[k].1.push(v),
                        (None, Some(k)) => {
                            self.kept_item()?;
                            all[k].values.push(v)
                        }
                        (None, None) => {}
                    }
                }
                values += 1;
                i = next;
            }
            if values == 0 {
                return err(format!("property {} has no value", quoted(name)));
            }
        }
    }

    /// Counts a property or value kept for a [`Tree`], refusing one past [`MAX_TREE_ITEMS`].
    fn kept_item(&mut self) -> Result<(), SgfError> {
        self.items += 1;
        if self.items > MAX_TREE_ITEMS {
            return err(format!(
                "more than {} properties and values",
                MAX_TREE_ITEMS
            ));
        }
        Ok(())
    }

    /// Reads a value after its `[` up to the closing `]`, resolving `\` escapes and dropping
    /// soft line breaks (`\` before a newline); the text only when `keep`. `None` when the text
    /// ends first.
    fn value(&self, mut i: usize, keep: bool) -> Option<(Option<String>, usize)> {
        let mut v = Vec::new();
        let bytes = self.bytes;
        while i < bytes.len() {
            match bytes[i] {
                b']' => {
                    let text = keep.then(|| String::from_utf8_lossy(&v).into_owned());
                    return Some((text, i + 1));
                }
                b'\\' => {
                    i += 1;
                    match bytes.get(i) {
                        Some(b'\n') => {
                            if bytes.get(i + 1) == Some(&b'\r') {
                                i += 1;
                            }
                        }
                        Some(b'\r') => {
                            if bytes.get(i + 1) == Some(&b'\n') {
                                i += 1;
                            }
                        }
                        Some(&c) => {
                            if keep {
                                v.push(c);
                            }
                        }
                        None => return None,
                    }
                    i += 1;
                }
                c => {
                    if keep {
                        v.push(c);
                    }
                    i += 1;
                }
            }
        }
        None
    }
}

/// What [`walk_first_game`] tells the reader that builds a game from its tokens.
trait GameBuilder {
    /// A game tree (a variation) opens: `(`.
    fn open(&mut self);
    /// The innermost open game tree closes: `)`.
    fn close(&mut self);
    /// How the node about to be read, in the innermost open game tree, is kept.
    fn keep(&self) -> Keep;
    /// The node just read (as [`GameBuilder::keep`] asked), in the innermost open game tree.
    fn node(&mut self, node: Node, props: Vec<Property>) -> Result<(), SgfError>;
}

/// Walks the tokens of the first game of `text`, from its first `(` to the `)` that closes
/// it, telling `builder` of each game tree and node; the rest of the text is not read. Returns
/// whether the text ended inside the game (a node or a game tree left open).
fn walk_first_game(text: &str, builder: &mut impl GameBuilder) -> Result<bool, SgfError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        setup_points: 0,
        items: 0,
    };
    let bytes = reader.bytes;
    let Some(start) = bytes.iter().position(|&c| c == b'(') else {
        return err("no game tree (no '(')");
    };
    let mut i = start;
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                builder.open();
                depth += 1;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return err("unbalanced ')'");
                }
                builder.close();
                depth -= 1;
                i += 1;
                if depth == 0 {
                    // The first game of the collection is complete; the rest is not read.
                    break;
                }
            }
            b';' => {
                if depth == 0 {
                    return err("node outside a game tree");
                }
                match reader.node(i + 1, builder.keep())? {
                    NodeRead::Node(node, props, next) => {
                        builder.node(node, props)?;
                        i = next;
                    }
                    NodeRead::CutShort => return Ok(true),
                }
            }
            _ if reader.space_at(i).is_some() => i += reader.space_at(i).unwrap_or(1),
            _ if depth == 0 => i += 1,
            _ => {
                return err(format!(
                    "unexpected '{}' between nodes",
                    quoted(&reader.char_at(i).to_string())
                ))
            }
        }
    }
    Ok(depth > 0)
}

/// Builds the main line: per open game tree, whether it lies on the main line and whether it
/// has had a variation yet (only the first one continues the main line).
#[derive(Default)]
struct MainLineBuilder {
    stack: Vec<Frame>,
    nodes: Vec<Node>,
}

impl MainLineBuilder {
    /// Whether a node of the innermost game tree is on the main line. A node after a node's
    /// variations (malformed, but seen) is on no line that the first variations make: it is
    /// read and left out.
    fn on_main_line(&self) -> bool {
        self.stack.last().is_some_and(|f| f.main && !f.had_child)
    }
}

impl GameBuilder for MainLineBuilder {
    fn open(&mut self) {
        let main = match self.stack.last_mut() {
            None => true,
            Some(f) => {
                let m = f.main && !f.had_child;
                f.had_child = true;
                m
            }
        };
        self.stack.push(Frame {
            main,
            had_child: false,
        });
    }

    fn close(&mut self) {
        self.stack.pop();
    }

    fn keep(&self) -> Keep {
        if self.on_main_line() {
            Keep::Used
        } else {
            Keep::Nothing
        }
    }

    fn node(&mut self, node: Node, _: Vec<Property>) -> Result<(), SgfError> {
        if !self.on_main_line() {
            return Ok(());
        }
        if self.nodes.len() == MAX_MAIN_LINE_NODES {
            return err(format!(
                "more than {} nodes on the main line",
                MAX_MAIN_LINE_NODES
            ));
        }
        self.nodes.push(node);
        Ok(())
    }
}

/// The main line of the first game in `text`: its nodes from the root on. A file that ends
/// inside the game gives its complete nodes ([`MainLine::cut_short`]); one with none is refused.
pub fn main_line(text: &str) -> Result<MainLine, SgfError> {
    let mut builder = MainLineBuilder::default();
    let cut_short = walk_first_game(text, &mut builder)?;
    let nodes = builder.nodes;
    if nodes.is_empty() {
        return err(if cut_short {
            "no complete node (file cut short?)"
        } else {
            "empty game tree"
        });
    }
    Ok(MainLine { nodes, cut_short })
}

/// A record's whole first game as the file holds it — every property of every node, every
/// variation — for tools that annotate a record and write it back ([`Tree::write`]). Nodes live
/// in one list, the root first, each with its children in file order (the first continues the
/// main line, as [`main_line`] reads it): flat, so that no nesting depth reaches the call
/// stack, in reading, writing or dropping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    pub nodes: Vec<TreeNode>,
}

/// One node of a [`Tree`]: its properties in file order and its children's indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeNode {
    pub props: Vec<Property>,
    pub children: Vec<usize>,
}

impl TreeNode {
    /// The values of property `id`, if present.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.values.as_slice())
    }

    /// Sets property `id` to `values`, replacing any it had.
    pub fn set(&mut self, id: &str, values: Vec<String>) {
        match self.props.iter_mut().find(|p| p.id == id) {
            Some(p) => p.values = values,
            None => self.props.push(Property {
                id: id.to_string(),
                values,
            }),
        }
    }
}

impl Tree {
    /// The indices of the main line's nodes, the root first: at every branching the first
    /// child.
    pub fn main_line(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut at = (!self.nodes.is_empty()).then_some(0);
        while let Some(i) = at {
            line.push(i);
            at = self.nodes[i].children.first().copied();
        }
        line
    }

    /// Adds a node with these properties as the last child of `parent`; returns its index.
    pub fn add_child(&mut self, parent: usize, props: Vec<Property>) -> usize {
        let index = self.nodes.len();
        self.nodes.push(TreeNode {
            props,
            children: Vec::new(),
        });
        self.nodes[parent].children.push(index);
        index
    }

    /// The tree as an FF[4] game tree: a node a line, variations in parentheses, values escaped.
    pub fn write(&self) -> String {
        enum Step {
            Open,
            Node(usize),
            Close,
        }
        let mut out = String::from("(");
        let mut steps = vec![Step::Node(0)];
        if self.nodes.is_empty() {
            steps.clear();
        }
        while let Some(step) = steps.pop() {
            match step {
                Step::Open => out.push_str("\n("),
                Step::Close => out.push(')'),
                Step::Node(i) => {
                    if i != 0 {
                        out.push('\n');
                    }
                    out.push(';');
                    let node = &self.nodes[i];
                    for p in &node.props {
                        out.push_str(&p.id);
                        for v in &p.values {
                            out.push('[');
                            out.push_str(&escape(v));
                            out.push(']');
                        }
                    }
                    match node.children.as_slice() {
                        [only] => steps.push(Step::Node(*only)),
                        kids => {
                            for &c in kids.iter().rev() {
                                steps.extend([Step::Close, Step::Node(c), Step::Open]);
                            }
                        }
                    }
                }
            }
        }
        out.push_str(")\n");
        out
    }
}

/// The whole first game of `text` as a [`Tree`], read by the same rules as [`main_line`]: a
/// file cut short gives its complete nodes (with a warning), and a node after a node's
/// variations (malformed, but seen) becomes one more variation there, so that the main line is
/// the one [`main_line`] reads. A tree of more than [`MAX_TREE_NODES`] nodes or
/// [`MAX_TREE_ITEMS`] properties and values is refused while it is read.
pub fn tree(text: &str) -> Result<Tree, SgfError> {
    let mut builder = TreeBuilder::default();
    let cut_short = walk_first_game(text, &mut builder)?;
    let tree = builder.tree;
    if tree.nodes.is_empty() {
        return err("empty game tree");
    }
    if cut_short {
        log::warn!("the record is cut short: read up to its last complete node");
    }
    Ok(tree)
}

/// Builds a whole [`Tree`]: per open game tree, the node its next node follows (`None` before
/// the root).
#[derive(Default)]
struct TreeBuilder {
    stack: Vec<Option<usize>>,
    tree: Tree,
}

impl GameBuilder for TreeBuilder {
    fn open(&mut self) {
        let tail = self.stack.last().copied().flatten();
        self.stack.push(tail);
    }

    fn close(&mut self) {
        self.stack.pop();
    }

    fn keep(&self) -> Keep {
        Keep::All
    }

    fn node(&mut self, _: Node, props: Vec<Property>) -> Result<(), SgfError> {
        if self.tree.nodes.len() == MAX_TREE_NODES {
            return err(format!(
                "more than {} nodes (variations included)",
                MAX_TREE_NODES
            ));
        }
        let tail = self.stack.last().copied().flatten();
        let index = match tail {
            Some(parent) => self.tree.add_child(parent, props),
            None if self.tree.nodes.is_empty() => {
                self.tree.nodes.push(TreeNode {
                    props,
                    children: Vec::new(),
                });
                0
            }
            None => return err("the game has more than one root node"),
        };
        if let Some(t) = self.stack.last_mut() {
            *t = Some(index);
        }
        Ok(())
    }
}
