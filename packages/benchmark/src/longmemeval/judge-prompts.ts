// The judge's prompt templates, copied verbatim from the official harness:
// github.com/xiaowu0162/LongMemEval, src/evaluation/evaluate_qa.py (`get_anscheck_prompt`).
// Each `{}` is filled in order with the question, the correct answer (the rubric for preference
// questions, the explanation for abstention questions) and the model's response.

/** For single-session-user, single-session-assistant and multi-session questions. */
export const FACTUAL_JUDGE_TEMPLATE =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

/** For temporal-reasoning questions: the factual prompt with the off-by-one clause. */
export const TEMPORAL_JUDGE_TEMPLATE =
  "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer is 18), the model's response is still correct. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

/** For knowledge-update questions: an updated answer beside older information is correct. */
export const KNOWLEDGE_UPDATE_JUDGE_TEMPLATE =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.\n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

/** For single-session-preference questions, whose "answer" is a rubric. */
export const PREFERENCE_JUDGE_TEMPLATE =
  "I will give you a question, a rubric for desired personalized response, and a response from a model. Please answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's personal information correctly.\n\nQuestion: {}\n\nRubric: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

/** For abstention questions (ids containing `_abs`), whatever their type. */
export const ABSTENTION_JUDGE_TEMPLATE =
  'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if the model correctly identifies the question as unanswerable. The model could say that the information is incomplete, or some other information is given but the asked information is not.\n\nQuestion: {}\n\nExplanation: {}\n\nModel Response: {}\n\nDoes the model correctly identify the question as unanswerable? Answer yes or no only.';

/** The judge template of each official question type. */
export const JUDGE_TEMPLATES_BY_TYPE: Readonly<Record<string, string>> = {
  'single-session-user': FACTUAL_JUDGE_TEMPLATE,
  'single-session-assistant': FACTUAL_JUDGE_TEMPLATE,
  'multi-session': FACTUAL_JUDGE_TEMPLATE,
  'temporal-reasoning': TEMPORAL_JUDGE_TEMPLATE,
  'knowledge-update': KNOWLEDGE_UPDATE_JUDGE_TEMPLATE,
  'single-session-preference': PREFERENCE_JUDGE_TEMPLATE,
};

/** The judge's reply length in tokens (`max_tokens` 10). */
export const JUDGE_MAX_TOKENS = 10;

/** The harness's default judge model. */
export const DEFAULT_JUDGE_MODEL = 'gpt-4o-2024-08-06';

/** The short judge names the harness accepts (its `model_zoo`), and the models they stand for. */
export const JUDGE_MODEL_ALIASES: Readonly<Record<string, string>> = {
  'gpt-4o': 'gpt-4o-2024-08-06',
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  'llama-3.1-70b-instruct': 'meta-llama/Meta-Llama-3.1-70B-Instruct',
};
