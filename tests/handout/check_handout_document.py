#!/usr/bin/python3
"""Checks handout documents (the JSON in a page's #handout-data) against the page's contract:
resources/handout/handout.schema.json, and what a schema cannot say — every index into a table of
the document lies inside it, and every packed array holds the bytes its shape needs.

Usage: check_handout_document.py SCHEMA DOCUMENT...
Exit 0: every document holds to it; 1: a finding, each printed with its JSON path; 2: bad usage,
an unreadable file, or python3-jsonschema missing (scripts/install-deps.sh installs it)."""
import base64
import binascii
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_handout_document: python3-jsonschema is missing (scripts/install-deps.sh)")
    sys.exit(2)


def packed_size(text):
    try:
        return len(base64.b64decode(text, validate=True))
    except (binascii.Error, ValueError):
        return -1


def references(doc):
    """Yields (path, message) for each index outside its table and each array of the wrong size."""
    tables = {name: len(doc[name]) for name in ("labels", "texts", "images", "encodings", "groups")}

    def index(path, value, table, allow_none=True):
        if value == -1 and allow_none:
            return
        if not 0 <= value < tables[table]:
            yield path, f"{value} is not an index into {table} ({tables[table]} entries)"

    def size(path, text, expected):
        got = packed_size(text)
        if got != expected:
            yield path, f"{got} packed bytes where its shape needs {expected}"

    yield from size("$.colors.viridis", doc["colors"]["viridis"], 256 * 3)
    for i, c in enumerate(doc["curves"]):
        yield from size(f"$.curves[{i}].steps", c["steps"], 8 * c["points"])
        yield from size(f"$.curves[{i}].values", c["values"], 4 * c["points"])
    for i, img in enumerate(doc["images"]):
        yield from size(f"$.images[{i}].rgb", img["rgb"], 3 * img["width"] * img["height"])
    for i, e in enumerate(doc["encodings"]):
        yield from size(f"$.encodings[{i}].values", e["values"], e["positions"] * e["dims"])
    for f, frame in enumerate(doc["frames"]):
        at = f"$.frames[{f}]"
        yield from index(f"{at}.encoding", frame["encoding"], "encodings")
        if len(frame["probes"]) > len(doc["probe_samples"]):
            yield f"{at}.probes", f"{len(frame['probes'])} probes but {len(doc['probe_samples'])} probe samples"
        for p, probe in enumerate(frame["probes"]):
            pat = f"{at}.probes[{p}]"
            yield from index(f"{pat}.image", probe["image"], "images")
            if probe["prediction"] is not None:
                for key in ("text", "truth", "prediction"):
                    yield from index(f"{pat}.prediction.{key}", probe["prediction"][key], "texts", False)
            for a, item in enumerate(probe["attention"]):
                aat = f"{pat}.attention[{a}]"
                yield from index(f"{aat}.group", item["group"], "groups", False)
                for key in ("row_labels", "col_labels", "row_predictions"):
                    yield from index(f"{aat}.{key}", item[key], "labels")
                maps = len(item["layers"]) * item["heads"]
                yield from size(f"{aat}.weights", item["weights"], maps * item["rows"] * item["cols"])
                yield from size(f"{aat}.scales", item["scales"], 4 * maps)
    lesson = doc.get("lesson")
    for m, moment in enumerate(lesson["moments"] if lesson else []):
        mat = f"$.lesson.moments[{m}]"
        if (moment["head"] is None) != (not moment["inputs"]):
            yield f"{mat}.head", "a head without inputs, or inputs without a head"
        for i, item in enumerate(moment["inputs"]):
            iat = f"{mat}.inputs[{i}]"
            yield from index(f"{iat}.text", item["text"], "texts")
            yield from index(f"{iat}.image", item["image"], "images")
            for key in ("row_labels", "col_labels"):
                yield from index(f"{iat}.{key}", item[key], "labels")
            yield from size(f"{iat}.weights", item["weights"], item["rows"] * item["cols"])
    for c, comp in enumerate(doc.get("computations") or []):
        cat = f"$.computations[{c}]"
        if comp["group"] != -1:
            yield from index(f"{cat}.group", comp["group"], "groups", False)
        for key in ("query_labels", "key_labels"):
            yield from index(f"{cat}.{key}", comp[key], "labels")
        queries, keys, d_model, d_head = comp["q"]["rows"], comp["k"]["rows"], comp["d_model"], comp["d_head"]
        shapes = {"query_input": (queries, d_model, 2), "key_input": (keys, d_model, 2),
                  "q": (queries, d_head, 4), "k": (keys, d_head, 4), "v": (keys, d_head, 2),
                  "logits": (queries, keys, 4), "scaled": (queries, keys, 4), "weights": (queries, keys, 4),
                  "head_output": (queries, d_head, 2), "joined": (queries, d_model, 2),
                  "output": (queries, d_model, 2)}
        split = comp["split"] or {}
        for key in split:
            shapes[key] = ((queries if key.startswith("q") else keys), d_head, 4)
        for key, (rows, cols, width) in shapes.items():
            m = split.get(key) or comp.get(key)
            if m is None:
                continue
            if (m["rows"], m["cols"]) != (rows, cols):
                yield f"{cat}.{key}", f"[{m['rows']} × {m['cols']}] where the head needs [{rows} × {cols}]"
            yield from size(f"{cat}.{key}.values", m["values"], width * rows * cols)
        if comp["masked"]:
            yield from size(f"{cat}.masked", comp["masked"], queries * keys)
        cell = comp["cell"]
        if cell is not None:
            if not (cell["query"] < queries and cell["key"] < keys):
                yield f"{cat}.cell", f"({cell['query']}, {cell['key']}) outside [{queries} × {keys}]"
            if len(cell["products"]) != d_head:
                yield f"{cat}.cell.products", f"{len(cell['products'])} products for d_head {d_head}"
    hs = doc["head_stats"]
    if hs is not None:
        steps = packed_size(hs["steps"]) // 8
        for s, series in enumerate(hs["series"]):
            sat = f"$.head_stats.series[{s}]"
            yield from size(f"{sat}.values", series["values"], steps)
            if series["group"] >= len(hs["groups"]):
                yield f"{sat}.group", f"{series['group']} is not an index into head_stats.groups"
            if series["metric"] >= len(hs["metrics"]):
                yield f"{sat}.metric", f"{series['metric']} is not an index into head_stats.metrics"


def check(schema, path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot be read as JSON: {e}")
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    findings = [(e.json_path, e.message) for e in validator.iter_errors(doc)]
    if not findings:
        findings = list(references(doc))
    for where, message in findings[:50]:
        print(f"{path}: {where}: {message}")
    return 1 if findings else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"{argv[1]}: not a usable schema: {e}")
        return 2
    return max(check(schema, path) for path in argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
