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
