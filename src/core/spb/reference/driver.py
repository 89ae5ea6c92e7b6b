# The Python side of the reference driver: our own code, run with the user's Python against the user's checkout of
# the StreamProfileBench repository. It imports bench_task.py's BenchTaskBuilder and calls format_prompt with the
# arguments bench_inference.py's rebuild_prompt_with_persona passes; bench_inference.py itself is not imported (it
# needs openai and httpx at import time): its system message and request parameters are read from the
# `....create(...)` call in LLMClient._real_inference with `ast`, literals only.
#
# Protocol, one JSON object per line: first {"ready": {...}} or {"fatal": "..."}; then per request line
# {"id", "args"} one answer {"id", "prompt"} or {"id", "error"}. Output is ASCII-only JSON on a duplicate of the
# original stdout; anything the checkout prints goes to stderr.
import ast, io, json, os, sys
sys.dont_write_bytecode = True
root = sys.argv[1]
out = os.fdopen(os.dup(1), "w", encoding="ascii", newline="\n")
sys.stdout = sys.stderr

def send(obj):
    out.write(json.dumps(obj, ensure_ascii=True) + "\n")
    out.flush()

def literal(node, what):
    try:
        return ast.literal_eval(node)
    except Exception:
        raise ValueError("bench_inference.py:%d: %s is not a literal" % (node.lineno, what))

def request_params():
    path = os.path.join(root, "bench_inference.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_real_inference"), None)
    if fn is None:
        raise ValueError("bench_inference.py: no function _real_inference")
    call = next((n for n in ast.walk(fn) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Attribute) and n.func.attr == "create"), None)
    if call is None:
        raise ValueError("bench_inference.py:%d: _real_inference makes no .create(...) call" % fn.lineno)
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    system = None
    msgs = kw.get("messages")
    if isinstance(msgs, ast.List):
        for m in msgs.elts:
            if not isinstance(m, ast.Dict):
                continue
            d = {k.value: v for k, v in zip(m.keys, m.values) if isinstance(k, ast.Constant)}
            role = d.get("role")
            if isinstance(role, ast.Constant) and role.value == "system" and "content" in d:
                system = literal(d["content"], "the system message")
    if not isinstance(system, str):
        raise ValueError("bench_inference.py:%d: the create call has no literal system message" % call.lineno)
    params = {}
    for name, node in kw.items():
        if name in ("model", "messages"):
            continue
        params[name] = literal(node, "the parameter " + name)
    return {"system": system, "params": params, "line": call.lineno}

def main():
    try:
        info = request_params()
        sys.path.insert(0, root)
        import bench_task
        builder = bench_task.BenchTaskBuilder
        info["module"] = os.path.abspath(bench_task.__file__)
        info["python"] = sys.version.split()[0]
    except Exception as e:
        send({"fatal": "%s: %s" % (type(e).__name__, e)})
        return
    send({"ready": info})
    for line in io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"):
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            a = req["args"]
            prompt = builder(a["platform"]).format_prompt(
                username=a["username"], bio=a["bio"], batch_n_posts=a["posts_text"],
                candidate_pool=a["candidate_pool"], step_id=a["step_id"], total_steps=a["total_steps"],
                prev_persona=a["prev_persona"])
            if not isinstance(prompt, str):
                raise TypeError("format_prompt returned %s, not a str" % type(prompt).__name__)
            send({"id": req["id"], "prompt": prompt})
        except Exception as e:
            send({"id": req.get("id"), "error": "%s: %s" % (type(e).__name__, e)})

main()
