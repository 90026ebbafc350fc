"""`memo graph` read by the real Graphviz: its dot output renders into a valid SVG with a
node per selected memo and an edge per link between two of them (docs/REFERENCE.md, Links)."""
import json
import subprocess
import xml.etree.ElementTree as ElementTree

SVG = "{http://www.w3.org/2000/svg}"


def run(memo_binary, environment, store, *arguments, stdin=None):
    return subprocess.run([memo_binary, "--store", str(store), *arguments], env=environment, input=stdin,
                          capture_output=True, check=True).stdout


def make_store(memo_binary, environment, tmp_path):
    store = tmp_path / "links.sqlite"
    for text in ['Buy "milk" \\ and eggs', "Weekly plan", "Trip to 京都 #2 🎉", "lonely"]:
        run(memo_binary, environment, store, "add", text)
    # Written once #3 exists: a link names the memo that has the id when its text is written.
    run(memo_binary, environment, store, "edit", "2", "Weekly plan: #1 and #3")
    return store


def rendered(dot_source):
    svg = subprocess.run(["dot", "-Tsvg"], input=dot_source, capture_output=True, check=True).stdout
    root = ElementTree.fromstring(svg)
    assert root.tag == SVG + "svg"
    groups = root.iter(SVG + "g")
    nodes, edges = {}, set()
    for group in groups:
        title = group.find(SVG + "title").text if group.find(SVG + "title") is not None else None
        text = " ".join(t.text or "" for t in group.iter(SVG + "text"))
        if group.get("class") == "node":
            nodes[title] = text
        elif group.get("class") == "edge":
            edges.add(title)
    return nodes, edges


def test_dot_renders_every_memo_and_link(memo_binary, environment, tmp_path):
    store = make_store(memo_binary, environment, tmp_path)
    nodes, edges = rendered(run(memo_binary, environment, store, "graph"))
    assert nodes == {"1": '#1 Buy "milk" \\ and eggs', "2": "#2 Weekly plan: #1 and #3", "3": "#3 Trip to 京都 #2 🎉",
                     "4": "#4 lonely"}
    assert edges == {"2->1", "2->3", "3->2"}


def test_filters_select_the_nodes_and_the_edges_between_them(memo_binary, environment, tmp_path):
    store = make_store(memo_binary, environment, tmp_path)
    nodes, edges = rendered(run(memo_binary, environment, store, "graph", "--linked-from", "2"))
    assert set(nodes) == {"1", "3"} and edges == set()
    nodes, edges = rendered(run(memo_binary, environment, store, "graph", "--since", "2000-01-01", "--tag", "none"))
    assert nodes == {} and edges == set()
    graph = json.loads(run(memo_binary, environment, store, "--json", "graph", "--links-to", "2"))
    assert [node["id"] for node in graph["nodes"]] == [3] and graph["edges"] == []
    graph = json.loads(run(memo_binary, environment, store, "graph", "--format", "json"))
    assert graph["edges"] == [{"from": 2, "to": 1}, {"from": 2, "to": 3}, {"from": 3, "to": 2}]
    assert graph["nodes"][0] == {"id": 1, "uuid": graph["nodes"][0]["uuid"], "title": 'Buy "milk" \\ and eggs'}


def notebook_of_500(memo_binary, environment, tmp_path):
    """A store of 500 memos linked as notebooks are: ten hubs each named by many memos, short
    chains, memos naming two earlier ones, and most memos naming none."""
    words = "plan trip dentist milk bread meeting notes idea book garden paint invoice review draft call".split()
    lines, hubs = [], []
    for memo in range(1, 501):
        title = " ".join(words[(memo * 7 + step * 3) % len(words)] for step in range(3 + memo % 10)).capitalize()
        links = []
        if memo % 50 == 1:
            hubs.append(memo)
        elif memo % 5 == 0:
            links = [hubs[memo % len(hubs)]]
        elif memo % 7 == 0:
            links = [memo - 1]
        elif memo % 11 == 0 and memo > 20:
            links = [memo - 3, memo - 10]
        lines.append("add " + title + "".join(f" see #{link}" for link in links))
    script = tmp_path / "notebook.memo"
    script.write_text("\n".join(lines) + "\n")
    store = tmp_path / "notebook.sqlite"
    run(memo_binary, environment, store, "run", str(script))
    return store


def drawing_size(dot_source):
    """The size dot draws the graph at, in points, and what it says when a PNG must shrink."""
    svg = ElementTree.fromstring(subprocess.run(["dot", "-Tsvg"], input=dot_source, capture_output=True,
                                                check=True).stdout)
    width, height = (float(svg.get(side).removesuffix("pt")) for side in ("width", "height"))
    png = subprocess.run(["dot", "-Tpng", "-o", "/dev/null"], input=dot_source, capture_output=True, check=True)
    return width, height, png.stderr.decode()


def test_500_memos_render_readably_by_default(memo_binary, environment, tmp_path):
    store = notebook_of_500(memo_binary, environment, tmp_path)
    source = run(memo_binary, environment, store, "graph")
    assert source.count(b"->") > 150
    width, height, png_complaint = drawing_size(source)
    # Not a strip: a page a person can pan over at full size, which a PNG holds unscaled.
    assert 1 / 3 < width / height < 3, (width, height)
    assert max(width, height) < 15000, (width, height)
    assert "Scaling" not in png_complaint and "too large" not in png_complaint, png_complaint


def test_direction_label_length_and_linked_shape_the_graph(memo_binary, environment, tmp_path):
    store = make_store(memo_binary, environment, tmp_path)
    assert b"rankdir=TB" in run(memo_binary, environment, store, "graph", "--direction", "TB")
    nodes, edges = rendered(run(memo_binary, environment, store, "graph", "--label-length", "0", "--linked"))
    assert nodes == {"1": "#1", "2": "#2", "3": "#3"} and edges == {"2->1", "2->3", "3->2"}
    nodes, _ = rendered(run(memo_binary, environment, store, "graph", "--label-length", "8"))
    assert nodes["2"] == "#2 Weekly …"
    graph = json.loads(run(memo_binary, environment, store, "--json", "graph", "--linked"))
    assert [node["id"] for node in graph["nodes"]] == [1, 2, 3] and len(graph["edges"]) == 3
    # Only links between memos of the graph count: #2's are to memos the filter leaves out.
    graph = json.loads(run(memo_binary, environment, store, "--json", "graph", "--linked", "--linked-from", "2"))
    assert graph == {"nodes": [], "edges": []}
    for arguments in (["--direction", "up"], ["--label-length", "-1"]):
        failed = subprocess.run([memo_binary, "--store", str(store), "graph", *arguments], env=environment,
                                capture_output=True, text=True)
        assert failed.returncode != 0 and arguments[0] in failed.stderr, failed.stderr
