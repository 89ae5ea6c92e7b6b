// The one model the demo endpoint serves: its id in requests and its name in replies, logs and help text.
export const DEMO_MODEL_ID = 'demo-model-not-an-llm';
export const DEMO_MODEL_NAME = 'demo model, not an LLM';
