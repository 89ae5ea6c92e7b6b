# The Python side of PersonaMem's reference driver: our own code, run with the user's Python against the user's
# checkout of the PersonaMem repository. It asks the checkout's own inference.py for what decides a request and its
# reading: Evaluation.query_llm (the messages, which provider branch, the parameters) and Evaluation.extract_answer
# (score and predicted answer), with the module functions query_llm calls (convert_role_system_to_user,
# openai_to_gemini_history). They are taken out of inference.py by name with `ast` and run in a namespace of ours,
# since importing the file needs torch, tiktoken, anthropic and the rest; nothing of the checkout is imported and
# nothing reaches the network: the client query_llm calls is a stand-in that records the call and stops it.
#
# Requests, one JSON object per line, answered in order:
#   {"op": "request", "model", "question", "all_options", "context": [{role, content}...]}
#       -> {"api": "openai" | "anthropic" | "gemini", "messages": [...], "params": {...}}
#   {"op": "read", "reply", "correct_answer"} -> {"score": bool, "predicted_answer": str}
import ast, io, json, os, re, sys, types
sys.dont_write_bytecode = True
root = sys.argv[1]
out = os.fdopen(os.dup(1), "w", encoding="ascii", newline="\n")
sys.stdout = sys.stderr

METHODS = ["query_llm", "extract_answer"]
HELPERS = ["convert_role_system_to_user", "openai_to_gemini_history"]


def send(obj):
    out.write(json.dumps(obj, ensure_ascii=True) + "\n")
    out.flush()


class Captured(Exception):
    pass


class Recorder:
    """Stands in for the three clients query_llm may call; records the call and stops it."""

    def __init__(self):
        self.call = None
        rec = self

        def create_chat(**params):
            rec.call = ("openai", params)
            raise Captured()

        def create_message(**params):
            rec.call = ("anthropic", params)
            raise Captured()

        def generate(**params):
            rec.call = ("gemini", params)
            raise Captured()

        self.chat = types.SimpleNamespace(completions=types.SimpleNamespace(create=create_chat))
        self.messages = types.SimpleNamespace(create=create_message)
        self.models = types.SimpleNamespace(generate_content=generate)


# Gemini's content types, as far as openai_to_gemini_history uses them: a part's text and whose turn it is.
class Part:
    def __init__(self, text=None, **_):
        self.text = text


class _Content:
    role = "user"

    def __init__(self, parts=None, **_):
        self.parts = list(parts or [])


class UserContent(_Content):
    role = "user"


class ModelContent(_Content):
    role = "assistant"


def load_functions():
    path = os.path.join(root, "inference.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    evaluation = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Evaluation"), None)
    if evaluation is None:
        raise ValueError("inference.py has no class Evaluation")
    methods = {n.name: n for n in evaluation.body if isinstance(n, ast.FunctionDef) and n.name in METHODS}
    missing = [m for m in METHODS if m not in methods]
    if missing:
        raise ValueError("inference.py's Evaluation has no " + ", ".join(missing))
    helpers = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in HELPERS]
    ns = {"re": re, "json": json, "os": os, "Part": Part, "UserContent": UserContent, "ModelContent": ModelContent,
          "__name__": "persona_lab_personamem"}
    body = helpers + [methods[m] for m in METHODS]
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), ns)
    found = [n.name for n in helpers]
    return ns, found


def as_messages(api, params):
    if api == "gemini":
        contents = params.get("contents") or []
        return [{"role": getattr(c, "role", "user"),
                 "content": "".join(getattr(p, "text", "") or "" for p in getattr(c, "parts", []))}
                for c in contents]
    return list(params.get("messages") or [])


def main():
    try:
        ns, helpers = load_functions()
        info = {"module": os.path.abspath(os.path.join(root, "inference.py")), "python": sys.version.split()[0],
                "methods": ["Evaluation." + m for m in METHODS], "helpers": helpers}
    except Exception as e:
        send({"fatal": "%s: %s" % (type(e).__name__, e)})
        return
    send({"ready": info})
    for line in io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"):
        if not line.strip():
            continue
        req = json.loads(line)
        rid = req.get("id")
        try:
            op = req["op"]
            if op == "request":
                rec = Recorder()
                self = types.SimpleNamespace(args={"models": {"llm_model": req["model"]}}, client=rec)
                context = req.get("context") or None
                try:
                    ns["query_llm"](self, req["question"], req["all_options"], context)
                except Captured:
                    pass
                if rec.call is None:
                    raise ValueError("query_llm made no client call for model " + req["model"])
                api, params = rec.call
                rest = {k: v for k, v in params.items() if k not in ("model", "messages", "contents")}
                send({"id": rid, "api": api, "messages": as_messages(api, params), "params": rest})
            elif op == "read":
                score, predicted = ns["extract_answer"](None, req["reply"], req["correct_answer"])
                send({"id": rid, "score": bool(score), "predicted_answer": predicted})
            else:
                raise ValueError("unknown op " + str(op))
        except Exception as e:
            send({"id": rid, "error": "%s: %s" % (type(e).__name__, e)})


main()
