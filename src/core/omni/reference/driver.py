# The Python side of OmniBehavior's reference driver: our own code, run with the user's Python against the user's
# checkout of the OmniBehavior repository. It asks the checkout's own code for everything that decides a request and
# its reading: the questions of a test action and their prompts (src/models/prompt_builder.py), the request each
# answer type makes and how its reply is read (ModelCaller in src/models/model_caller.py), and the judge's targets,
# prompt and reply reading (the _llm_judge_* functions of src/evaluation/evaluator.py, taken out by name with `ast`,
# since importing that file needs numpy, sklearn and the rest). The checkout never reaches the network from here:
# `openai` and `requests` are replaced by stand-ins before model_caller.py is imported; the stand-in client records
# the create call's parameters, or hands back the reply Persona Lab received, so ModelCaller's own code reads it.
#
# Requests, one JSON object per line, answered in order: {"op": "questions" | "request" | "parse" | "judge_prompt" |
# "judge_parse", ...}. See reference/source.ts for the fields.
import ast, inspect, io, json, os, sys, types, typing, re, time, math, hashlib, threading
sys.dont_write_bytecode = True
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
root = sys.argv[1]
src = os.path.join(root, "src")
out = os.fdopen(os.dup(1), "w", encoding="ascii", newline="\n")
sys.stdout = sys.stderr

def send(obj):
    out.write(json.dumps(obj, ensure_ascii=True) + "\n")
    out.flush()

class Captured(Exception):
    pass

state = {"reply": None, "params": None}

class _Completions:
    def create(self, **params):
        state["params"] = params
        if state["reply"] is None:
            raise Captured("persona-lab: parameters recorded")
        msg = types.SimpleNamespace(content=state["reply"])
        choice = types.SimpleNamespace(message=msg, logprobs=None)
        return types.SimpleNamespace(choices=[choice], usage=None)

class StandInOpenAI:
    def __init__(self, *a, **k):
        self.chat = types.SimpleNamespace(completions=_Completions())

fake_openai = types.ModuleType("openai")
fake_openai.OpenAI = StandInOpenAI
sys.modules["openai"] = fake_openai
sys.modules["requests"] = types.ModuleType("requests")
sys.path.insert(0, src)

JUDGE_FUNCTIONS = ["_llm_judge_check_user_history", "_llm_judge_extract_inputs",
                   "_llm_judge_construct_prompt", "_llm_judge_parse_response"]

def judge_functions(action_types):
    path = os.path.join(src, "evaluation", "evaluator.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in JUDGE_FUNCTIONS}
    missing = [n for n in JUDGE_FUNCTIONS if n not in found]
    if missing:
        raise ValueError("evaluator.py has no " + ", ".join(missing))
    ns = {"re": re, "json": json, "time": time, "get_record_action_type": action_types.get_record_action_type,
          "get_action_type": action_types.get_action_type, "__name__": "persona_lab_judge"}
    ns.update({k: getattr(typing, k) for k in ("Dict", "List", "Optional", "Tuple", "Any")})
    code = compile(ast.Module(body=[found[n] for n in JUDGE_FUNCTIONS], type_ignores=[]), path, "exec")
    exec(code, ns)
    return ns

def retries_of(fn):
    p = inspect.signature(fn).parameters.get("max_retries")
    return p.default if p is not None and isinstance(p.default, int) else None

def main():
    try:
        import action_types
        import models.prompt_builder as pb
        import models.model_caller as mc
        judge = judge_functions(action_types)
        MC = mc.ModelCaller
        tokenizer = "qwen" if pb._get_qwen_tokenizer() is not None else "approximate"
        info = {
            "module": os.path.abspath(pb.__file__),
            "python": sys.version.split()[0],
            "tokenizer": tokenizer,
            "attempts": {"binary": retries_of(MC.call_binary_classification),
                         "continuous": retries_of(MC.call_continuous_prediction),
                         "text": retries_of(MC.call_text_prediction)},
        }
    except Exception as e:
        send({"fatal": "%s: %s" % (type(e).__name__, e)})
        return
    send({"ready": info})
    users = {}

    def history_of(path, user):
        key = (path, user)
        if key not in users:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            users.clear()
            users[key] = data[user]
        return users[key]

    def caller(model, temperature):
        cfg = {"name": model, "type": "openai_compatible", "api_key": "", "model": model,
               "endpoints": [{"url": "http://persona-lab.invalid/v1"}]}
        if temperature is not None:
            cfg["temperature"] = temperature
        c = MC(cfg)
        c._log_error = lambda *a, **k: None
        return c

    def run_call(c, kind, prompt):
        if kind == "binary":
            return c.call_binary_classification(prompt, max_retries=1)
        if kind == "continuous":
            return c.call_continuous_prediction(prompt, max_retries=1)
        if kind == "text":
            return c.call_text_prediction(prompt, max_retries=1)
        if kind == "judge":
            return c.call(prompt, max_retries=1)
        raise ValueError("unknown answer type " + str(kind))

    builders = {"binary": pb.build_single_binary_prompt, "continuous": pb.build_single_continuous_prompt,
                "text": pb.build_single_text_prompt}

    for line in io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"):
        if not line.strip():
            continue
        req = json.loads(line)
        rid = req.get("id")
        try:
            op = req["op"]
            if op == "questions":
                u = history_of(req["file"], req["user"])
                history = u.get("action_history") or []
                i = req["index"]
                test_action = dict(history[i])
                test_action["user_id"] = req["user"]
                if pb.should_filter_action(test_action):
                    send({"id": rid, "filtered": True, "questions": []})
                    continue
                qs = []
                for q in pb.get_all_questions_for_action(test_action):
                    build = builders.get(q.get("type"))
                    data = build(u.get("user_profile", ""), history[:i], test_action, q,
                                 max_history_tokens=req.get("max_history_tokens"),
                                 max_history_days=req.get("max_history_days")) if build else None
                    qs.append({"field": q.get("field"), "type": q.get("type"), "true_value": q.get("true_value"),
                               "video_duration": q.get("video_duration"),
                               "has_prior_user_speech": q.get("has_prior_user_speech"),
                               "prompt": data["prompt"] if data else None})
                send({"id": rid, "filtered": False, "questions": qs})
            elif op == "request":
                state["reply"] = None
                state["params"] = None
                run_call(caller(req["model"], req.get("temperature")), req["kind"], "")
                params = state["params"]
                if params is None:
                    raise ValueError("ModelCaller made no create call for " + req["kind"])
                send({"id": rid, "messages": params.get("messages"),
                      "params": {k: v for k, v in params.items() if k not in ("model", "messages")}})
            elif op == "parse":
                state["reply"] = req["reply"]
                try:
                    r = run_call(caller(req["model"], req.get("temperature")), req["kind"], "")
                finally:
                    state["reply"] = None
                if req["kind"] == "judge":
                    send({"id": rid, "success": r is not None, "text": r})
                else:
                    send({"id": rid, "success": bool(r.get("success")), "prediction": r.get("prediction"),
                          "predicted_label": r.get("predicted_label"), "why": r.get("error"),
                          "method": r.get("method")})
            elif op == "judge_prompt":
                rec = req["record"]
                if judge["_llm_judge_extract_inputs"](rec) is None:
                    send({"id": rid, "status": "not_target", "prompt": None})
                elif not judge["_llm_judge_check_user_history"](rec):
                    send({"id": rid, "status": "skipped", "prompt": None})
                else:
                    inputs = judge["_llm_judge_extract_inputs"](rec)
                    send({"id": rid, "status": "target", "prompt": judge["_llm_judge_construct_prompt"](inputs)})
            elif op == "judge_parse":
                send({"id": rid, "scores": judge["_llm_judge_parse_response"](req["reply"])})
            else:
                raise ValueError("unknown op " + str(op))
        except Exception as e:
            send({"id": rid, "error": "%s: %s" % (type(e).__name__, e)})

main()
