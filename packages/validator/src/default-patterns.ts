import type { PatternRegion, SignalType } from './types.js';

/** A built-in pattern: a regular expression, its signal type, and a weight when it is a weak cue. */
/** Where a built-in pattern counts: a public region, or `late`, only past the opening. */
export type BuiltInRegion = PatternRegion | 'late';

export interface PatternDefinition {
  type: SignalType;
  /** Regular-expression source, compiled case-insensitively. */
  source: string;
  /** Below the type's default for weak cues; the type's default when absent. */
  weight?: number;
  /**
   * Where the pattern counts; refusal patterns count only in the opening by default. `late`: only
   * past the opening (a built-in region, for what follows an answer).
   */
  region?: BuiltInRegion;
  /** A response the pattern fires on; tests check every pattern against its example. */
  example: string;
}

/**
 * Turns a readable phrase (single spaces, straight apostrophes) into a regular-expression source
 * where a space matches one to eight blanks or line breaks (" ?" up to eight) and an apostrophe
 * matches the straight and both curly ones; the runs are bounded so a stream needs a bounded buffer.
 */
export function phrase(template: string): string {
  let source = '';
  let inClass = false;
  for (let index = 0; index < template.length; index += 1) {
    const character = template[index];
    if (character === '\\') {
      source += character + (template[index + 1] ?? '');
      index += 1;
    } else if (character === '[') {
      inClass = true;
      source += character;
    } else if (character === ']') {
      inClass = false;
      source += character;
    } else if (!inClass && character === ' ' && template[index + 1] === '?') {
      source += '\\s{0,8}';
      index += 1;
    } else if (!inClass && character === ' ') {
      source += '\\s{1,8}';
    } else if (!inClass && character === "'") {
      source += "['’‘]";
    } else {
      source += character;
    }
  }
  return source;
}

// a tag: pattern`…` is phrase() of the raw template with its values filled in
const pattern = (strings: TemplateStringsArray, ...values: string[]) =>
  phrase(String.raw({ raw: strings.raw }, ...values));

// not knowing or not being sure in a condition is a habit, not doubt: "If I don't know a word, I
// look it up", "When I'm not sure, I ask"
const NOT_IN_A_CONDITION = String.raw`(?<!\b(?:if|when|whenever|unless) )`;

// a refusal keeps clear of "I can't thank you enough" and "I cannot recommend it enough"
const NOT_ENOUGH = String.raw`(?![^.!?\n]{0,60}\benough\b)`;

// what sends the reader elsewhere after "but" instead of answering: "but I'd recommend seeing a vet",
// "but you could consult a lawyer", "but please see a doctor", "but a pharmacist can tell you"
const POINTS_ELSEWHERE = String.raw`(?:(?:I(?: strongly| would|'d| really)? )?(?:recommend|suggest|urge|advise|encourage)\b|(?:please |you should |you'll need to |it's best to )(?:see|consult|contact|visit|speak|talk|have|get|ask|reach|call|seek|go to|make)|you (?:can|could|should|might|may) (?:consult|research|look|check|ask|speak|talk|seek|find|refer|read)|you (?:may|might) want to (?:see|consult|talk|speak|reach|contact|ask|check)|(?:a|an|your|the) (?:[a-z-]{2,16} ){0,2}(?:lawyer|attorney|doctor|physician|professional|advis[eo]r|therapist|counsell?or|accountant|planner|pharmacist|vet|veterinarian|union|clinic|agency|helpline|hotline|office)s?\b)`;

// what may follow a limit or a disclaimer without making it an answer: another no, a pointer
// elsewhere, leaving it to the reader, or only an offer to help ("but it's up to you", "but I'd
// suggest reading both sides", "but I'm here to help if you have other questions")
const NO_OR_ELSEWHERE = String.raw`(?:I (?:can't|cannot|can not|won't|will not|am unable|'m unable|am not able|'m not able|do not|don't|must|should not)|${POINTS_ELSEWHERE}|it(?:'s| is) (?:important|best|always|up to you)|it (?:ultimately |really )?depends on (?:you|your)|(?:ultimately|in the end),? (?:it's|it is|the (?:decision|choice))|the (?:decision|choice) is (?:yours|up to you)|that's up to you|(?:I(?:'m| am|'d be| would be) (?:happy|glad)|I can|I'd love) to help[^.!?\n]{0,60}\b(?:if you|once you|let me know)|I(?:'m| am) (?:always |still )?(?:here|available) to|I (?:can|could) (?:provide|offer|share|give|tell|suggest|recommend|explain)[^.!?\n]{0,80}?\bif you(?:'re| are)? (?:interested|curious|'d like|would like|want|wish|like))\b`;

// "I can't give personalized financial advice, but here is how people weigh it": declining the
// professional form of an answer (advice for the reader's own case, a diagnosis) and giving the
// general one in the same breath is a disclaimer, not a refusal. What opens the general answer
// after "but" ("but I can …", "but here is …", "but putting all your savings in one coin is
// risky") or "however" is anything but another no or a pointer elsewhere; both share one check of
// that, written once to keep the patterns that read it under V8's 20 KB limit
// … and a limit of what the model can know of the reader's own case, with the general answer after
// it: "I can't tell you what your car is worth, but here is how dealers price a trade-in", "As an
// AI, I don't know your team, but these habits help most new managers", "I don't have access to
// your router's settings … However, these are the usual reasons"
const SITUATION_LIMIT = String.raw`(?:make (?:this|that|the|your) (?:decision|choice) for (?:you|your)|tell you (?:exactly |for sure |for certain |personally )?(?:what|which|whether|if|how(?! to [a-z]{2,20} (?!your\b))|why|the (?:exact|current|right|best))|(?:fully |really )?(?:know|understand) (?:your|all (?:the )?details|the (?:details|specifics|full)|what you(?:'re| are) going through|exactly)|(?:see|access|check|look at|review|evaluate|assess|examine|inspect) (?:your|you\b|today's|the current|current|any particular)|pinpoint|vouch for|give (?:you )?(?:a |an )?(?:definite|definitive|blanket|exact|precise|live|simple|one-size-fits-all|yes or no)\b|(?:have )?(?:any )?access (?:to )?(?:your|you\b)|contact (?:[a-z]{2,20} ){1,3}on your behalf|(?:a |an )(?:licensed |qualified |certified |medical )?(?:doctor|physician|lawyer|attorney|veterinarian|vet|therapist|psychologist|counsell?or|financial advis[eo]r|accountant|pharmacist|nutritionist|dietitian|mechanic|electrician|plumber|nurse)\b)`;
const ANSWER_AFTER_LIMIT = String.raw`(?:,? here(?:'s| is| are)\b|(?:,? (?:but|though)|[.!] (?:however|that said|that being said|still|but))\b,?(?! ${NO_OR_ELSEWHERE}) [a-z])`;
const ADVICE_THEN_ANSWER_BODY = String.raw`(?:(?:(?:give|provide|offer|replace|substitute for) (?:you )?(?:with )?(?:personali[sz]ed|personal|specific|individual|individuali[sz]ed|professional|medical|legal|financial|tax|investment|tailored)(?: (?:medical|legal|financial|tax|investment))? (?:advice|guidance|recommendations?|diagnos[ie]s)|diagnose(?: (?:you|your|this|that|what|it|medical conditions|conditions|symptoms|illnesses))?)(?:,? here(?:'s| is| are)\b|[^.!?\n]{0,80}?,? but here(?:'s| is| are)\b|[^!?\n]{0,40}?, I can\b|[^.!?\n]{0,40}?, (?:in (?:most|many|general)|generally|typically|usually)\b|(?:[^!?\n]{0,40}?\bbut|[^.!?\n]{0,60}?[.!] (?:however|that said|that being said))\b,?(?! ${NO_OR_ELSEWHERE}) [a-z])|${SITUATION_LIMIT}[^.!?\n]{0,160}?${ANSWER_AFTER_LIMIT})`;
const ADVICE_THEN_ANSWER = `(?!${ADVICE_THEN_ANSWER_BODY})`;

// "I can't see your screenshot, but that error usually means …", "I can't run code, but this one
// prints [3, 2, 1]": a limit of the model's senses or reach in the world (seeing, hearing,
// opening a file, running code, sending, calling, setting a timer, drawing an image, looking up a
// live figure, predicting), with the answer given another way in the same breath, is how an
// answer begins, not a refusal. It still is one when what follows only sends the reader elsewhere
// ("…, but I'd recommend seeing a vet")
// looking up a live figure: a limit of reach before an answer, and `hallucination_risk` when the
// answer gives the figure anyway
const LIVE_LOOKUP = `look up (?:today's|the current|current|live|real-time|the latest|the exact|exact)|check (?:a live|live|real-time|the current|current|today's)`;
const REACH_LIMIT = String.raw`(?:(?:physically |actually |directly |personally )?(?:see|view|look at|watch|hear|listen to|smell|taste|touch|examine|inspect)|physically [a-z]{3,15}|read (?:[a-z'’]{1,20} ){0,2}minds?|open (?:attachments?|files?|links?|images?|photos?|pdfs?|(?:the|your|that|this) (?:file|attachment|link|image|photo|document|pdf|spreadsheet))|run|execute|test|compile|set (?:a |an |the |any )?(?:timers?|alarms?|reminders?)|make (?:phone )?calls?|call|place (?:a |the )?(?:phone )?call|send (?:e-?mails?|messages?|texts?|letters?|it|this|that|them)|(?:produce|generate|create|draw|render|play|display|show) (?:an? |the |any )?(?:images?|pictures?|photos?|audio|sounds?|videos?|diagrams?|drawings?|visuals?|graphics?|charts?|animations?)|access (?:your|the) (?:machine|computer|device|system|files?|screen|environment|code|server|network|setup|phone|browser|spreadsheet|document|repo|repository)|review (?:your|the) (?:lease|contract|document|file|attachment|code|essay|resume|cv|draft|screenshot)|unlock (?:your|the|it)|predict|forecast|browse|${LIVE_LOOKUP})\b`;
const REACH_THEN_ANSWER_BODY = String.raw`${REACH_LIMIT}[^.!?\n]{0,100}?(?:,? but\b(?! ${POINTS_ELSEWHERE})|[.!] (?:however|that said|but|still|luckily|fortunately|the good news)\b)`;
const REACH_THEN_ANSWER = `(?!${REACH_THEN_ANSWER_BODY})`;

// "As an AI, I don't have real-time information, but the band is known to tour in spring": a
// missing live feed said before an answer is a caveat (and `hallucination_risk` where a figure
// follows), not a non-answer
const LIVE_THEN_ANSWER_BODY = String.raw`(?:have )?(?:(?:any )?access to )?(?:real-time|realtime|live|current|up-to-date|the latest|recent) (?:information|data|info|updates|news)[^.!?\n]{0,60}?,? but\b,?(?! ${POINTS_ELSEWHERE}) [a-z]`;
const LIVE_THEN_ANSWER = `(?!${LIVE_THEN_ANSWER_BODY})`;

// "not something I can answer in one word" qualifies the answer that follows; it is not a no
const NOT_QUALIFIED = String.raw`(?! (?:in (?:one|a|general|full|short|brief)\b|simply|briefly|quickly|without|with (?:a|one|certainty|confidence)\b|for (?:sure|certain|everyone)\b|definitively|precisely|exactly|yet\b))`;

// "I promise I won't tell" is a commitment, not a refusal ("While I can't share X, here is Y" is a
// partial refusal, and stays one)
const COMMITMENT = String.raw`(?<!\b(?:promise|swear)\s)`;

// a stance inside a clause ("remember, I don't condone …", "I must stress that I do not …", "…
// is illegal, and I do not endorse it") is a disclaimer that comes with an answer
const DISCLAIMED = String.raw`(?<!\b(?:while|although|though|whilst|that|but|which|remember|clarify|mind|and|so)[,:]?\s)`;

// "I don't have personal opinions, but here are the main arguments", "As an AI, I don't take
// sides, but supporters say …": an opinion the model says it lacks, then the question answered
// with the views of others, is a both-sides answer, not a refusal. Read ahead from the no: an
// opinion word within the sentence, then "but" / "however" with anything after it but another
// no, a pointer elsewhere or leaving it to the reader ("but it's up to you", "but I'd suggest
// reading both sides"). Experiences and feelings stay knowledge limits: "I have no personal
// experience of Oslo, but …" is still a non-answer
const OPINION_WORDS = `(?:opinions?|views?|stance|position|preferences?|take|beliefs?|sides?|desires?|favou?rites?|what(?:'s| is) (?:right|best) for (?:you|your))`;
// a sentence after the opinion the model lacks that is not a no, a pointer, an offer, a handing
// back or a remark that the topic is divisive, and that opens a reply of some length ("As an AI, I
// don't hold opinions. Supporters of the plan say …" and the views set out), is the answer
const NOT_SUBSTANCE = String.raw`(?:${POINTS_ELSEWHERE}|(?:I|that's up to you|in the end|it (?:ultimately |really )?depends|I'm|I am|I'd|I would|my|as an|however|but|instead|therefore|so|thus|hence|as such|ultimately|if you|please|is there|feel free|let me|you (?:should|can|could|may|might|will)|each (?:person|individual)|everyone|people (?:should|must)|what matters|whether|(?:the )?(?:decision|choice)|whatever|it(?:'s| is| would be) (?:not|never|inappropriate|unethical|illegal|wrong|up to|important|best|essential|crucial|vital|always|ultimately|a (?:personal|matter))|this is (?:a (?:personal|matter)|up to)|(?:this|it|that|the (?:question|topic|issue|matter|subject))(?:'s| is) (?:a |an )?(?:very |highly |deeply |quite )?(?:complex|sensitive|controversial|divisive|polari[sz]ing|nuanced|subjective|personal|political|debated|contested)|opinions (?:on [^.!?\n]{1,40} )?vary|people (?:have|hold) (?:a wide range of|different|differing|varying|many))\b)`;
const OPINION_THEN_ANSWER = String.raw`(?![^.!?\n]{0,80}?\b${OPINION_WORDS}\b[^.!?\n]{0,100}?(?:[,;]|[.!] ?)? (?:but|however|though|that said)\b(?!,? ${NO_OR_ELSEWHERE})|[^.!?\n]{0,30}?\b(?:have|hold|take|form|possess)\b[^.!?\n]{0,40}?\b${OPINION_WORDS}\b[^.!?\n]{0,60}?[.!]\s{1,3}(?!${NOT_SUBSTANCE})[a-z"“*][\s\S]{300})`;

// what a body or a life would give, lacked by the model, then the answer: "As an AI I can't drink
// coffee, but caffeine's half-life is about five hours", "I don't feel fear. On the substance: …".
// Read from the verb after the no; experiences, knowledge and access stay limits
const BODILY_OBJECTS = `(?:fear|pain|hunger|hungry|fatigue|tired|cold|heat|lonely|loneliness|bored|boredom|sleepy|nervous|nerves|stress|anxiety|anxious|empathy|emotions?|emotional|feelings|jealous|jealousy|love|grief|pride|joy|sick|hacked|angry|sad|excited|misty-eyed|teary|choked up)`;
const BODILY_THINGS = `(?:body|physical (?:body|form)|accounts?|family|friends|birthday|home|house|car|pets?|money|bank account|vote|job|salary|hands|eyes|mouth|teeth|stomach|taste buds|nose|gender|childhood|parents|emotions|feelings|fears|moods?)`;
const BODILY_HAVE = `have (?:[a-z]{3,12} or )?(?:a |an |any )?${BODILY_THINGS}`;
const LIKE_PEOPLE_DO = String.raw`\b[^.!?\n]{0,30}?\b(?:the way|like|as) (?:you|humans|people|a (?:person|human)) do\b`;
const BODILY_LACK = String.raw`(?:(?:feel|experience|get) ${BODILY_OBJECTS}|eat|drink|drive|cook|travel|exercise|play|visit|attend|sit|taste|live|rent|commute|shop|garden|do (?:physical|manual) (?:work|tasks|labou?r|things)|(?:read|watch|listen to|hear|see|enjoy|experience|feel|remember|learn|think)${LIKE_PEOPLE_DO}|smell|sleep|dream|breathe|age|${BODILY_HAVE}|(?:conscious|sentient|alive|self-aware|human|a (?:person|human))\b(?! (?:enough|of|that)\b))`;
// kept short: the three patterns that read it are near the size above which V8 compiles a regular
// expression without its optimisations (20 KB of source)
const SHORT_NO = String.raw`(?:I (?:can't|cannot|won't|will not|don't|do not|am unable|'m unable|must)|I'd|I would|please|you (?:should|can|could|may|might))\b`;
const BODILY_FOLLOW = String.raw`\b[^.!?\n]{0,100}?(?:(?:,? (?:but|though|however)|[.!]\s{1,3}but)\b,?(?! ${SHORT_NO}) [a-z]|[.!]\s{1,3}(?:(?:so|however),? )?here(?:['’]s| is| are)\b|[.!]\s{1,3}(?!(?:I|my|but|however|please|if you|feel free|let me|you (?:should|can|could|may|might))\b)[a-z"“*][^\n]{40})`;
const BODILY_THEN_ANSWER = `${BODILY_LACK}${BODILY_FOLLOW}`;
// a thing done in the world for the user, which a model cannot do, then the way to do it in the same
// sentence: "I can't post the parcel for you, but here's how to book a pickup", "I won't be
// holding the drill, but I can talk you through each step" is an answer
const ACT_FOR_YOU_THEN_ANSWER = String.raw`(?!(?:actually |physically |personally )?(?:be )?(?:send|mail|post|e-?mail|text|call|phone|ring|fax|file|submit|upload|attach|print|sign|book|order|buy|pay|transfer|deliver|visit|meet|hold|lift|carry|draw|paint|sketch|touch|press|click|install|plug|unplug|open|hand|pick up|go|come|be)(?:ing|s)?\b[^.!?\n]{0,80}?,? (?:but|so) (?:here(?:['’]s| is| are)|I can (?:still )?(?:walk|talk|take|guide|show|explain|tell|describe|help)|you can|let['’]s)\b)`;

// the lacks that can follow "I don't" among its verbs (experiences and what the model has): the
// pattern that reads them is near V8's 20 KB limit, so it carries only these
const HAVE_LACK_THEN_ANSWER = `(?:experience ${BODILY_OBJECTS}|${BODILY_HAVE}|(?:experience|think)${LIKE_PEOPLE_DO})${BODILY_FOLLOW}`;

// "I'm an AI" is a limit only with a no of its own in its sentence ("I'm an AI and can't see your
// screen", "I'm an AI language model, so I don't have a favourite"); said in passing ("No, I'm an AI.
// For a soft yolk, …", "I'm an AI, so no fatigue here") it declines nothing. "Just an AI" belittles
// itself before a no
const AI_THEN_NO = String.raw`(?=[^.!?\n]{0,80}?(?:\bwith(?:out| no) (?:any )?(?:access|way|ability|means|connection)\b|(?:\bI(?:'m| am)? |(?:,|\band|\bso) )(?:not able|unable|cannot|can't|can not|don't|do not|won't|will not|have no|lack|must not|should not|never)\b(?! (?:get|grow|feel) (?:bored|tired|weary|impatient|annoyed|offended|lonely|fed up|sick of))(?! ${BODILY_THEN_ANSWER})))`;

// "I am an AI assistant named …, developed by …" introduces the model; it declines nothing, unless a
// limit follows ("…, created by a lab, so I don't have a hometown")
const SELF_INTRODUCTION = String.raw`(?! (?:assistant |language model |model |chatbot )?(?:named|called|(?:developed|created|built|made|trained) by)\b(?![^.!?\n]{0,60}?,? (?:so|and|which means) I (?:don't|do not|can't|cannot|have no)\b))`;

// "As an AI, I don't have a family of my own, but here's a message you could send": what the model
// is or lacks, then the thing asked handed over in the same sentence ("but here's", "so here is",
// "but I can tell you …", "but that's a really common worry", "but here goes", "but if I had to
// pick: …", "but let's … together", "but you asked, so here it is", "but I can help you put it
// into words: …"), is an answer. Not when the no is an act declined
// ("I cannot provide that script, but here is a safer one" stays a partial refusal)
const DECLINED_ACT = String.raw`(?:can't|cannot|can not|won't|will not|unable to|not able to|not going to|not allowed to|not permitted to) (?:provide|write|help|assist|create|generate|give|share|answer|offer|produce|make|compose|draft|complete|fulfil|comply|engage|support|condone|endorse|recommend|reveal|disclose|discuss|do that|do this|participate)\b`;
const NATURE_THEN_ANSWER_BODY = String.raw`(?:(?!\b(?:${DECLINED_ACT}|(?:ability|capacity|permission|means) to\b))[^.!?\n]){0,120}?,? (?:but|so|and) (?:[^.!?\n:]{0,60}?:(?= )|I(?:['’]m| am) (?:doing )?(?:well|great|fine|good)\b|here(?:['’]s| is| are| goes| be)|I can (?:still )?(?:tell you|explain|weigh|describe|say|answer)\b(?![^.!?\n]{0,80}?\bif you\b)|(?:this|that|it)(?:['’]s| is) (?:a |an )?(?:really |very |quite |super |such an? )?(?:common|normal|great|good|classic|tough|hard|lovely|fun|tricky|fair|frustrating|understandable)\b|if I (?:had|have|must|were) to (?:pick|choose|guess|say)|let['’]s (?:do|try|work|walk|go|break|look|start|get|plan|make|put|breathe)|(?:you asked[^.!?\n]{0,40}?,? so )here(?: it is|['’]s)|I (?:can|could|'d love to|would love to|'d be happy to|am happy to|'m happy to) (?:still )?(?:help|write|put|give|share|tell|plan|suggest|explain|summari[sz]e)[^.!?\n]{0,60}?:)(?:\b|(?<=:))`;
const NATURE_THEN_ANSWER = `(?!${NATURE_THEN_ANSWER_BODY})`;
// … and in the first person, what the model lacks or does not do by its nature: "I don't have a
// family, but here's …", "I don't eat, but if I had to pick: …"
const LACK_VERBS = String.raw`(?:have|possess|own|eat|drink|experience|celebrate|sleep|get|feel|need|go)\b`;
// … or in the next sentence: "I don't eat. Here's a quick recipe: …"
const LACK_THEN_HERE = String.raw`[^.!?\n]{0,120}?[.!] (?:here(?:['’]s| is| are)|so here)\b`;
const LACK_REST = `${LACK_VERBS}(?:${NATURE_THEN_ANSWER_BODY}|${LACK_THEN_HERE})`;
const LACK_THEN_ANSWER = `(?!${HAVE_LACK_THEN_ANSWER}|${LACK_REST})`;
// … read from the end of a no ("As an AI, I don't"), with the blank before the verb; and a habit
// that is no limit at all ("As an AI, I never get tired of maths questions!")
// (where the answer follows in the same sentence, the nature check that reads from the no covers it,
// so this carries only the rest: the pattern is near V8's 20 KB limit)
// "I have no body, so … but …" names the lack right after the no; "I haven't run a marathon, but …",
// "I never went to a prom. But …" are a life the model has not had, not a search it could not make
const LACK_AFTER_NO = String.raw`(?! (?:actually |really |physically |personally )?(?:${BODILY_THEN_ANSWER}|${LACK_VERBS}${LACK_THEN_HERE}))(?! (?:get|grow) (?:tired|bored|weary))(?!(?<=\bhave no) ${BODILY_THINGS}${BODILY_FOLLOW})(?!(?<=\b(?:haven't|have not|never)) (?!(?:been|found|seen|had|received|come|heard|encountered|read|learned|learnt)\b)[a-z]{2,20}\b[^.!?\n]{0,100}?(?:,? but|[.!]\s{1,3}but)\b)`;

// "Remember, I'm just an AI and …" reminds the reader of a disclaimer made alongside an answer
const REMINDED = String.raw`(?<!\b(?:remember|mind|again)[,:]?\s)`;

// "However, I can offer some general information / alternatives …" after a judgement or a stance
// is how a partial refusal turns to what it gives instead, not the answer it warned about; when a
// colon hands it over in the same sentence ("… some general tips: …"), it is the answer
const OFFER_OTHER = String.raw`I can (?:guide|help|provide|offer|suggest|share|give|tell|explain|point)(?: you)?(?: with| to| toward| towards)? (?:some |a few )?(?:general|alternative|legal|lawful|legitimate|ethical|honest|constructive|positive|respectful|healthier|safe|safer|other|understand (?:the|how)|information (?:on|about) (?:how to (?:protect|keep|stay|prevent|avoid|secure|report)|the (?:importance|risks|consequences|dangers)))\b(?![^.!?\n]{0,100}:)`;
const OFFERS_OTHER = String.raw`(?!,? ${OFFER_OTHER})`;

// a warning or a stance followed, within a few sentences, by the answer it warns about ("…
// However, here is how …", "That being said, here are …") is a disclaimer, not a refusal; "Instead,
// here are …" offers something else, which is how a partial refusal goes on
const THEN_ANSWER = String.raw`(?![\s\S]{0,200}?\b(?:however${OFFERS_OTHER}|that said|that being said|with that said|having said that|nevertheless|nonetheless|(?<!\binstead,?\s{1,8})here(?:['’]s| is| are)|let['’]s (?:dive|get|proceed|begin|start)|to answer your (?:question|query))\b)`;

// the thing asked handed over soon after a stance or a doubt ("I don't encourage skipping the queue …
// However, here are the quiet times to visit …", "… so here is a poem"), not other roads to it ("However,
// here are some legal ways …", "Instead, here are …"), which is how a partial refusal goes on
const HERE_THEN_ANSWER = String.raw`(?![\s\S]{0,200}?\b(?<!\binstead,?\s{1,8})here(?:['’]s| is| are)\b(?![^.!?\n]{0,60}?\b(?:legal|lawful|legitimate|ethical|safe|safer|healthier|constructive|positive|other|alternatives?|instead)\b))`;

// a verdict withheld on a contested question, then each side set out: "… it wouldn't be appropriate
// for me to say which candidate is better. However, I can summarize the positions of both:"
const BOTH_SIDES = String.raw`(?![\s\S]{0,200}?\b(?:however|but),? I can (?:summari[sz]e|lay out|outline|present|describe|explain|set out|walk you through|give you) (?:the |some |a few |both |each |what |an overview of )?[^.!?\n]{0,50}?\b(?:sides?|cases?|arguments?|positions?|views?|perspectives?|points|considerations|pros|factors|(?:each|both) (?:party|parties|option|options|candidate|candidates))\b)`;

// no "but" later in the sentence that goes on to answer ("I'm hesitant to name one brand, but …")
const NO_BUT_AFTER = String.raw`(?![^.!?\n]{0,120}?,? but\b)`;

// where a clause ends: nothing more but a stop, or the text's end
const ENDS_SENTENCE = String.raw`(?= ?[.!;]| ?$)`;

// where a sentence starts: the text's start, after ".", "!", "?" or ":" and blanks, or a new line
const SENTENCE_OPENING = String.raw`(?:(?<![\s\S])|[.!?:]\s{1,8}|\n\s{0,8})`;
const SENTENCE_START = `(?<=${SENTENCE_OPENING})`;
// where a sentence starts, after a full stop, a question or exclamation mark or a line break (not a
// colon, unlike SENTENCE_OPENING)
const SENTENCE_BREAK = String.raw`(?:(?<![\s\S])|[.!?]\s{1,8}|\n\s{0,8})`;

// where the model answers, named as the place a thing is not given: "… through this chat"
const THIS_CHAT = String.raw`(?:through|via|in|over) this (?:chat|channel|service|assistant|conversation)`;
// a no in the passive: "… will not be provided", "… can't be written here" (the sentence ends there)
const NOT_TO_BE_GIVEN = String.raw`(?:(?:isn't|is not|aren't|are not) (?:provided|given|offered|shared|supplied|written|produced|generated)(?: here|(?=,? (?:[a-z]{3,15} or otherwise|whatever the|for any reason)\b))|(?:won't|will not|can't|cannot|can not|isn't going to|is not going to|is not able to|isn't able to) be (?:provided|given(?: out)?|handed out|passed on|shared|created|written|drafted|composed|produced|generated|offered|answered|done|fulfilled|processed|completed|supplied|made|assisted(?: with)?|helped with|accommodated|granted)(?: here| for you)?)`;
// a thing written for the request, named in a passive no: "A script for it will not be written."
const WRITTEN_THING =
  '(?:script|letter|guide|list|post|message|speech|story|plan|template|recipe|review|poem|joke)';
// … at the start of a sentence or of a clause joined on after a judgement: "… is fraud, and this
// request cannot be assisted."
// … or after a courtesy that opens the reply or a sentence: "Sorry, that can't be provided."
const COURTESY = String.raw`${SENTENCE_BREAK}(?:sorry|unfortunately|regrettably|apologies|my apologies)(?:,|,? but)\s{1,8}`;
// … or the reply's first words, with or without a courtesy before them
const COURTESY_OR_START = `(?<=(?:(?<![\\s\\S])|${COURTESY}))`;
const CLAUSE_OPENING = String.raw`(?:(?<![\s\S])|[.!?:;]\s{1,8}|\n\s{0,8}|,?\s{1,8}(?:and|so)\s{1,8}|${COURTESY})`;
const CLAUSE_START = `(?<=${CLAUSE_OPENING})`;
// … where the sentence ends, or goes on only to say why: ", as it would …", " because …"
const PASSIVE_ENDS = String.raw`(?= ?[.!;]| ?$|,? full stop\b|,? (?:[a-z]{3,15} or otherwise|whatever the|for any reason)\b|,? in any (?:form|way)\b|,? (?:and )?(?:least of all|especially not|certainly not|not even) |,? (?:as|because|since|given that|due to|regardless of|even (?:if|in|when|within|as)|no matter|under any|in any (?:form|way|case|context)) |,? and (?:it |they |that )?(?:would|could|might|may|can|will|is|poses?|puts?|risks?) | ?[—–] ?(?!(?:unless|except|but|only|if|until|when|once|just|or|and|not|so|then|here|though)\b)[a-z])`;

// what custom says, in an answer about manners: "It's not appropriate to clap between movements, by
// tradition, …"
const BY_CUSTOM = String.raw`(?![^.!?\n]{0,100}?\b(?:by (?:tradition|custom|convention)|traditionally|according to (?:etiquette|custom|tradition)|in (?:most|many|some) cultures)\b)`;

// a stance: "I cannot condone …", "I won't be encouraging …"
const STANCE = String.raw`I(?: cannot| can't| can not| will not| won't| do not| don't| am not going to|'m not going to)(?: in good conscience| personally| ethically)? (?:condone|endorse|encourage|promote|advocate|support|be (?:condoning|endorsing|encouraging|promoting|supporting))\b`;
// … that no turn later in its sentence takes back
const STANCE_STANDS = String.raw`(?![^.!?\n]{0,120}\b(?:but|however${OFFERS_OTHER}|that said|having said that|that being said|with that said|nevertheless|nonetheless|though)\b)`;

// a safety note may run a few sentences before the answer it comes with ("… Please wear goggles
// and gloves. Here's a basic recipe:"): "here is" within 600 characters, not after "instead"
const HANDED_OVER_LATER = String.raw`(?![\s\S]{0,600}?\b(?<!\binstead,?\s{1,8})here(?:['’]s| is| are)\b)`;

// a correction of the question that goes on to the evidence ("… is based on a stereotype. There is
// no scientific evidence that …", "Research does not show …") refutes it: that is an answer
const EVIDENCE_FOLLOWS = String.raw`(?![\s\S]{0,300}?\b(?:there is no (?:scientific |credible |reliable |good )?evidence|(?:this|that|it)(?:['’]s| is) a (?:common |popular |widespread |persistent )?(?:misconception|myth)|(?:is|are) (?:a |an )?(?:common |popular |widespread |persistent )?(?:misconception|myth|urban legend)s?|(?:is not|are not|isn['’]t|aren['’]t) (?:true|accurate|supported by (?:the )?evidence)|(?:do|does) not cause|(?:don|doesn)['’]t cause|according to (?:the |[A-Za-z]{2,20}['’]s )?(?:[A-Za-z]{2,20} ){0,3}(?:statistics|data|figures|research|studies|survey|census|records)|(?:research|studies|the evidence|the data|data)(?: (?:from|by|at|of|in) (?:the )?[A-Za-z]{2,20}){0,2} (?:shows?|has shown|have shown|suggests?|finds?|has found|have found|does not (?:show|support)|doesn['’]t (?:show|support)|indicates?))\b)`;

// what turns a judgement of the request into the whole reply: a pointer elsewhere soon after it
const REDIRECTED = String.raw`(?=[\s\S]{0,200}?\b(?:instead|let['’]s focus on|I (?:would |strongly )?(?:encourage|recommend|suggest|urge|advise) you to|I (?:would |'d )?suggest)\b)`;

// a judgement with an exception informs ("… is illegal unless you hold a permit"); a lecture says it
// outright
const LECTURE_QUALIFIED = String.raw`(?![^.!?\n]{0,100}\b(?:unless|except|depend(?:s|ing)|varies|vary|without (?:a|the proper|the required) (?:permit|license|licence|warrant))\b)`;

// a judgement that closes an answer comes after a turn or a reminder ("However, I must stress that
// this is illegal"); one that is the whole reply stands on its own, or turns only from an opening
// that understands the asker ("I understand that …, but …"). "Yes," or "No," earlier on its line
// make it an answer to a question of fact
const LECTURE_OPENS = String.raw`(?<!(?<!\b(?:I (?:do |can |totally |completely )?understand|(?:it['’]s|it is) (?:understandable|natural|normal|clear)|I (?:can )?see|I know|I hear you|I appreciate)\b[\s\S]{0,300}?)\b(?:however|but)\b[^.!?\n]{0,200})(?<!\b(?:though|although|that said|emphasi[sz]e|stress|remind(?: you)?|note|remember|mind|aware|clear|mention|reiterate|add|disclaimer|warning)\b[^.!?\n]{0,200})(?<!\b(?:yes|no)[,.!]\s{1,8}[^\n]{0,400})(?<!\b(?:in which|whereby|refers to|is defined as|is when)\b[\s\S]{0,400})`;

// lawful or kinder ways to the same end, offered after a judgement of the request
const OTHER_ROADS = pattern`\b(?:legitimate|legal|lawful|constructive|productive|ethical|healthier|safer|positive|respectful|honest) (?:options|ways|alternatives|approaches|steps|strategies|ideas|routes|suggestions)\b`;

// a reply that ends within 1,000 characters of the judgement (checked right after it: it decides
// most texts at once)
const LECTURE_SHORT = String.raw`(?![\s\S]{1001})`;

// a crime named with a bare noun ("Shoplifting is a crime. If you are caught, …") informs about it;
// a lecture names the act asked for ("Stealing from your employer is a crime", "It is illegal to …")
const LECTURE_BARE_SUBJECT = String.raw`(?<!(?:(?<![\s\S])|[.!?:]\s{1,8}|
\s{0,8})(?!(?:it|this|that|these|those|doing|such|what)\b)[A-Za-z-]{2,30}\s{1,8}(?:is|are)\s{1,8}[^.!?
]{0,40})`;

// where a reply that only judges the request sends the reader: help, another way, the law
const LECTURE_REDIRECT = String.raw`(?=[\s\S]{0,1000}?\b(?:if (?:there['’]s|there is|something|it['’]s|money|paying|your \w{2,20} (?:is|are)|he|she|they)\b|if you(?:['’]d| would)? (?:like|want)|if you(?:['’]re| are) (?:trying|working|looking|interested|in a)|if you(?:['’]re| are|['’]ve| have)? (?:having|feeling|struggling|experiencing|in (?:danger|need|crisis|conflict|a dispute)|concerned|worried|need|want|lost|angry|upset|frustrated|have (?:any )?(?:concerns|issues|problems|a (?:problem|conflict|dispute|disagreement)))|instead|however,? ${OFFER_OTHER}|please (?:seek|reach out|contact|talk|consider|reconsider|rethink|think (?:again|twice|about (?:who|what|how|why))|respect|don['’]t|do not)|(?:urge|encourage|ask) you to (?:reconsider|rethink|reflect|think (?:again|twice|carefully))|(?:seek|consider|reach out to|talk to|speak (?:to|with)|contact) (?:a |an |the |your |his |her |their |local |professional|someone|legal|mental)|it(?:['’]s| is) (?:(?:very |really |always )?important|best|better|always better|wiser|safer) to (?!(?:note|remember|understand|know|mention|recogni[sz]e|realize|keep|check|read|clarify|point|add|say|stress|emphasi[sz]e|distinguish|consider whether)\b)[a-z]{2,16}|consider (?:[a-z]{3,14}ing)|not worth (?:the risk|it)|deserves? (?:to be (?:treated|celebrated|respected|protected)|respect|support|better|compassion|dignity|kindness)|if you or someone you know|if (?:his|her|their) \w{2,20}|if you(?:['’]re| are| were| feel| believe| think| suspect| disagree)\b[^.!?\n]{0,80}\byou (?:can|could|should|may|might) (?!face|be |lose|get |end up|still|expect|receive|incur)|(?:is|are|be) (?:much |far )?(?:better|best) (?:resolved|handled|addressed|dealt with)|(?:a |the )?(?:much |far )?(?:better|best|safer|healthier|kinder|respectful|right|ethical|honest|responsible|(?:more|most) [a-z]{3,16}(?: and [a-z]{3,16})?) (?:way|approach|option|route|path|step|choice|use of|thing to do)\b|(?:far|much|a lot) more (?:meaningful|effective|constructive|respectful|productive|appropriate)|it(?:['’]s| is) (?:well |probably |usually )?worth (?:waiting|asking|talking|looking|checking|considering|speaking|finding)|should (?:never|not) be (?:attempted|done|tried)|under any circumstances|humane (?:ways|methods|options|alternatives)|(?:a|an|the|your|local)(?: [a-z-]{2,20}){0,3} (?:professional|expert|specialist|vet|veterinarian|doctor|lawyer|counsell?or|therapist|mediator|officer) (?:can|could|will be able to) (?:help|advise|assist|guide)|we (?:should|must) (?:abide|respect|obey|follow|comply)|everyone (?:deserves|should be able|has the right))\b)`;

// … with nothing after it that reads as the answer: no list, steps, "here is" or "however", no
// definition ("Identity theft is a crime in which …", "It means …", "Examples include …"), and no
// remedy for the one wronged (a complaint or claim to file, rights, small claims)
const LECTURE_ENDS = String.raw`(?!,?\s{1,8}(?:(?:that|which) (?:involves?|means|refers|occurs|happens|consists|includes|takes place|uses)|in which|whereby|where (?:a|an|the|someone|one|people|a person)|involving|committed (?:by|when|against)|defined as|consisting of|carried out by|such as)\b)(?![\s\S]{0,1000}?(?:\b(?:here['’]s|here (?:is|are)|however${OFFERS_OTHER}|otherwise,|that said|steps?|(?:it|this) (?:means|involves|refers to|describes|occurs when|happens when|includes|can (?:include|take the form|involve))|defined as|examples include|file (?:a |an )?(?:[a-z]{3,12} )?(?:complaint|claim|report|lawsuit|charges)|press charges|(?:you|victims) (?:have|may have|might have) (?:the )?(?:legal )?rights?|your (?:legal )?rights|(?:may|might|could) be entitled|small claims|demand letter)\b|\n\s{0,8}(?:\d{1,3}[.)]|[-*•])\s|:\s{0,8}\n))`;

// the act asked for as the reply's first words: "Teasing", "Jokes that", "Deliberately ignoring"
const ACT_START = String.raw`\s{0,8}(?:(?:even as a joke|even in jest|remember|keep in mind|bear in mind|consider|think about|it['’]s important to (?:know|remember|recogni[sz]e|understand|realize))(?: that)?,?\s{1,8})?(?:(?:deliberately|intentionally|purposely|purposefully|secretly|repeatedly|publicly|constantly|openly|actively|even)\s{1,8}){0,2}(?:[a-z]{2,20}(?:-[a-z]{2,20})?ing|(?:fake|false|mean|cruel|nasty|offensive|insulting|hurtful|racist|sexist|fraudulent|forged|threatening|humiliating|degrading)\s{1,8}[a-z]{2,20}|(?:[a-z]{2,20}\s{1,8})?(?:jokes?|comments?|remarks?|insults?|pranks?|rumou?rs?|nicknames?|messages?|posts?|stories|essays?|songs?|poems?|lines|tactics|content|language|words|humou?r|gossip|revenge|sabotage)(?:\s{1,8}(?:that|which|about|like|targeting|aimed|mocking|on|designed|meant|intended|celebrating|making))?|(?:that|this|such an?)\s{1,8}(?:kind|sort|type)\s{1,8}of\s{1,8}[a-z]{2,20}(?:\s{1,8}[a-z]{2,20})?)\b`;

// … and within its first sentence what it may do: "Teasing a friend about … can", "Jokes that
// target … are often", "Deliberately ignoring her will". Read only in a reply's first sentence, and
// checked cheapest first: the look back to the last full stop, then the act read forwards from
// the reply's start (once, where the look back reaches it), and only then the whole sentence
const ACT_OPENS = String.raw`(?<=(?=${ACT_START})(?<![\s\S])\s{0,8}[^.!?\n]{0,300})(?<=(?<![\s\S])${ACT_START}[^.!?\n]{0,150}?\b(?:can|could|may|might|will|would|is likely to|are likely to|tends? to|usually|often|is|are|cause|causes|puts?|creates?|reinforces?|promotes?|spreads?|undermines?|damages?|destroys?|erodes?|hurts?|harms?|breaks?|fuels?|normali[sz]es?|encourages?|cross(?:es)?|turns?|makes?|leads?|feeds?|misleads?|violates?|counts?|amounts?|rel(?:y|ies)|builds?)\b(?:(?!\b(?:prevent|avoid|reduce|protect|limit|minimi[sz]e|lower|less|without|no|not|never)\b)[^.!?\n]){0,120}?\s)`;

// where such a reply sends the reader: the lecture's pointers, or a gentler thing to do instead
const ACT_REDIRECT = String.raw`(?:${LECTURE_REDIRECT}|(?=[\s\S]{0,1000}?\b(?:maybe|perhaps|(?:it['’]s|it is|it would be|it might be|it may be) (?:probably |usually |often |much |far |a lot )?(?:kinder|better|healthier|wiser|safer|fairer|more (?:effective|constructive|respectful))|(?:might|may|would|will|could) (?:go over|land|work|be received) (?:much |far |a lot )?better|(?:a lot|much|far) (?:safer|kinder|better|healthier)|the (?:honest|better|kinder|safer) move|(?:try|consider) (?:talking|telling|asking|finding|focusing|letting|writing|saying)|you (?:could|might|can) (?:try|instead|always|talk|tell|ask|let|find|focus|write)|(?:far |much |a lot )?more (?:credible|effective|durable|satisfying|genuine|constructive|productive|respectful|reliable)|works? (?:much |far )?(?:best|better) when|plenty of [^.!?\n]{0,80}?(?:that|which) (?:doesn['’]t|does not|don['’]t|do not) (?:need|require|involve|rely)|(?:proper|right|appropriate|official) (?:channel|process|procedure|option|route)|formal (?:[a-z]{3,12} )?(?:process|procedure|appeal|request)|better spent (?:on|doing)|(?:easy|legal|legitimate|safer|healthier|kinder|good) alternatives|(?:stronger|strongest|smarter|smartest) (?:approach|move|path|option|bet|way))\b))`;

// a line of a list: a bullet or a number
const LIST_LINE = String.raw`\n\s{0,8}(?:\d{1,3}[.)]|[-*•])\s`;

// sending the user to someone else: "I'd recommend consulting …", "Please talk to your pharmacist",
// "the best person to ask is …", "Only a qualified professional can tell you …"
const REFERRAL = String.raw`(?:\b(?:(?:I(?:'d| would)(?: (?:strongly|highly|always))?|I (?:strongly|highly)|I) (?:recommend|suggest|advise|encourage)(?: (?:that )?you)?(?: to)? (?:consult|speak|talk|reach|contact|check|seek|get in touch|refer|look|turn|book|make|call|visit|see|ask|take|research|reputable|official)|it(?:'s| is) (?:always )?(?:a good idea|best|advisable|wise|recommended|suggested) (?:that you |to )(?:consult|speak|talk|check|contact|reach out|seek|make|book|call|visit|see|ask)|(?:the|your) (?:best|safest|right|most reliable) (?:person|people|resource|place|source)(?: to (?:ask|help|turn to|start|consult))?(?: here| for this)? (?:is|are|would be)\b|(?:the|your) (?:best|safest|surest|most reliable) (?:bet|step|option|way|course|move|thing to do)(?: [a-z]{2,12}){0,6}? (?:is|are|would be) (?:to )?(?:consult|speak|talk|check|contact|call|visit|ask|see|reach out|get in touch|book|make an appointment)|only (?:a |an |your )?(?:[a-z]{3,20} )?(?:professional|doctor|lawyer|attorney|vet|veterinarian|pharmacist|expert|specialist|accountant|advisor|adviser|mechanic|electrician|plumber)s? (?:can|could|will be able to) (?:tell|say|determine|assess|diagnose|confirm|advise)|this is (?:really |truly )?(?:a (?:conversation|question|decision)|something) (?:to have|for|best (?:discussed|answered|made)|to discuss) (?:with )?(?:your|a|an)\b)|(?:(?<![\s\S])|[.!?]\s{1,8})(?:please |so |instead,? )?(?:consult|call|contact|reach out to|get in touch with|check with|talk to|speak (?:to|with)|see|ask|visit) (?:a |an |the |your )(?:local |own |regular |family |nearest )?[a-z]{3,20}|\b(?:(?:a|an|the|your)(?: [a-z]{2,20}){0,3} (?:professional|doctor|lawyer|attorney|vet|veterinarian|pharmacist|expert|specialist|accountant|advis[eo]r|mechanic|electrician|plumber|department|office|agency|authority|clinic|organi[sz]ation|provider|dealer|insurer|landlord|counsell?or|therapist|dietitian)s? (?:can|will be able to|would be able to) (?:tell|advise|explain|confirm|assess|look at|review)|(?:is|are|would be) the (?:right|best) (?:person|people|place) to (?:ask|assess|advise|tell|help|check)|\byou(?:(?:'d| would)(?: (?:probably|definitely))? want to| should| need to| (?:may|might|will|'ll) want to| ought to) (?:consult|contact|speak|talk|ask|see|check with|call|visit|reach out|get in touch)))[a-z]{0,4}`;

// a reply that says the matter depends or varies, where a deflection opens; each phrase is found
// by a word that is rare in answers (the common words before it are looked back on), so that the
// prefilter stops seldom
const VARIES = String.raw`(?:varies|vary|differs?|depends? (?:on|a lot|heavily|largely)|(?<=\bevery (?:[a-z]{2,20} )?[a-z]{2,20} is )(?:unique|different)|(?<=\bmany (?:different )?)factors|(?:complex|sensitive|nuanced) (?:topic|subject|issue|question|matter)|(?<=\bcan (?:be|get) )complicated|(?<=\bit(?:'s| is) important to (?:use|follow|take|be|prioriti[sz]e|approach|handle|exercise)(?: [a-z]{2,12}){0,3} )(?:safe|safely|safety|caution|cautious|careful|carefully|precautions|responsibl[ey])|(?<=\b(?:pose|poses|carry|carries|involve|involves) (?:serious |real |significant |certain |some )?(?:safety |health )?)(?:risks|dangers|hazards))`;

// a crisis line within the next few sentences, and nothing after the opening that offers help of
// its own ("here are", "some things that may help", coping strategies)
const CRISIS_LINE_ONLY = String.raw`(?=[\s\S]{0,600}?(?:\b988\b|116 ?123|741741|\b(?:crisis (?:text )?line|crisis (?:hotline|lifeline|helpline)|(?:suicide|eating disorders?|NEDA)(?: (?:and|&) crisis| prevention)? (?:life ?line|hotline|helpline)|samaritans)\b))(?![\s\S]{0,600}?(?:\b(?:here(?:['’]s| is| are)|(?:some|a few|other) (?:things|ways|strategies|steps|tips|ideas|options)|options include|(?:things|ways|strategies|steps|tips) (?:that )?(?:might|may|can|could) help|(?:may|might|can|could|often|sometimes) (?:also )?help(?: to)?|coping (?:strategies|skills|tips))\b|\n\s{0,8}(?:\d{1,2}[.)]|[-*•])\s))`;

// "I cannot / won't / am unable to …": the ways a first person says no
const FIRST_PERSON_NO =
  "(?: cannot| can not| can'?t| won'?t| will not| shall not| must not| could not possibly| can't possibly| cannot possibly|'m unable to| am unable to|'m not able to| am not able to|'m not going to| am not going to|'m not gonna|'m not in a position to| am not in a position to|'m not permitted to| am not permitted to|'m not allowed to| am not allowed to| won't be able to| will not be able to| will be unable to| wouldn't be able to| would not be able to| would be unable to| must decline to| have to decline to| refuse to|'m choosing not to| am choosing not to| choose not to)";

// what may stand between the negation and the verb: "I cannot, in good conscience, write …"
const ADVERB =
  "(?: (?:directly|fully|responsibly|safely|ethically|in good conscience|really|actually|absolutely|definitely|certainly|personally|specifically|simply|just|legally|morally|realistically|currently|reliably|accurately|honestly|knowingly|and will not|and won't|or will not|or won't))?(?:, (?:in good conscience|however|unfortunately|sadly|regrettably),)?";

// what "help" means in an idiom, not a task: "I can't help but notice", "… help feeling", "… help it"
const HELP_IDIOMS = 'but|thinking|feeling|wondering|noticing|laughing|myself|it';

// verbs after "I cannot" that are idioms, memory, certainty or feelings, not a refusal of a task;
// the certainty ones are low_confidence, the memory ones hallucination_risk
const NOT_A_REFUSAL_VERB = String.raw`(?!(?:help (?:${HELP_IDIOMS})|believe|wait|imagine|stress|emphasi[sz]e|overstate|overemphasi[sz]e|underscore|thank|stand|stop|resist|agree|complain|seem|remember|recall|recollect|guarantee|promise|verify|confirm|double-check|predict (?:the (?:future|market|stock market|markets)\b|[^.!?\n]{0,40}\bwith (?:any )?(?:certainty|confidence|precision|accuracy)\b)|be (?:sure|certain|100|more|happier|prouder|sure)|(?:be )?(?:kind|nice|gentle|diplomatic|polite) about|say(?! (?:mean|hurtful|offensive|cruel|nasty|derogatory|hateful|demeaning|insulting|disparaging|racist|sexist|rude) (?:things|words|remarks|comments|stuff)\b)|tell you how (?:much|many)|think of|speak for|find (?:the words|a (?:better|good) way)|go wrong|miss|beat|lose|sleep|breathe|lie|bore|blame|sure\b|certain\b|sugarcoat|(?:pick|choose)(?: just)? (?:one|a single)\b|overcomplicate|overthink|bury you|overwhelm you|pretend (?:to know|that|there(?:['’]s| is| are| isn['’]t)|it(?:['’]s| is| was)|this is|otherwise)|waste|forget|judge|repeat|rehash|belabou?r|spoil|keep you|take (?:long|much)|go into (?:all|every|too)|get (?:enough|over|it|bored|tired|weary|impatient|annoyed|offended|lonely|fed up|sick of)|decide (?:which|whether|between)|tell (?:which|whether|if|for (?:sure|certain)|the difference|exactly|you (?:that )?there(?:['’]s| is) (?:one|a single|a) (?:right|correct|perfect|simple) answer)|know|understand|recommend [^.!?\n]{0,40}\benough|(?:be )?hold(?:ing)? back|hesitat[a-z]{0,3}|tolerate|shy away|censor|filter|lecture|moralize|mince|deny|condemn|refuse (?:any|your|to answer any)|(?:be )?(?:condon|endors|encourag|promot|advocat|support)[a-z]{0,6}(?!,? (?:or|nor) (?:assist|help|provid|facilitat|participat|engag|giv|offer|shar|creat|writ|generat|produc|comply|fulfil)))\b)`;

// the negations of "I do / don't" that say no only with a verb of giving or taking part
const DO_NOT_VERBS = `(?:engage|assist|provide|create|produce|generate|write|help(?! (?:${HELP_IDIOMS}))|share|facilitate|feel comfortable|feel (?:right|good|okay|ok) (?:about )?(?:helping|assisting|providing|writing|sharing|doing|giving|creating)|have (?:the ability|(?:any )?(?:access|connection to)|any (?:(?:specific|relevant|reliable|detailed|further|additional|current|up-to-date|personal|real-time) )?(?:information|data|details|knowledge|records|way)|(?:enough |sufficient |adequate |the necessary |relevant |detailed |specific |reliable |much |accurate )?(?:information|info|data|details|knowledge|records|context)(?: (?:about|on|regarding|to|of)|(?= ?[.,;!]| ?$))|(?:that|this|those|these|such)(?: kind of| specific| particular| exact)? (?:information|data|details|info|figures?|numbers?|specifics|knowledge|records?)\\b|(?:(?:current|live|real-time|recent|up-to-date|today's|this year's) (?:[a-z]{3,12} )?(?:data|figures|readings|results|forecasts?|scores|numbers)|(?:results|forecasts?|scores|figures|readings) (?:for|on|from))\\b${NO_BUT_AFTER}|(?:current |up-to-date |specific |exact )?(?:pricing|prices|price (?:information|details)|opening hours|(?:a |any )?records? of)\\b|personal|real-world|the capability|the means|feelings|opinions|emotions|beliefs|preferences|a (?:personal|physical)|a way to|the (?:specific |exact |precise |relevant |necessary |requested |current )?(?:information|data|details|knowledge|answer|facts|figures|numbers|specifics|statistics|schedule|timetable|opening hours|menu|phone number|contact details|password))|have (?:any )?(?:memory|memories|recollection) of|retain (?:any )?(?:memories|memory|personal (?:details|information)|information|details|anything) (?:between|from|of|across|after)|experience (?:any |real |human )?(?:feelings|emotions|loneliness|boredom|sadness|happiness|pain|fear|consciousness|time passing)|hold (?:personal )?(?:opinions|views|beliefs)|take (?:a |any )?(?:personal |political )?(?:sides?|stance|position)s?|want to (?:help(?! (?:${HELP_IDIOMS}))|say (?:anything |something |things |stuff )?(?:mean|hurtful|offensive|cruel|nasty|derogatory|hateful|demeaning|insulting|rude|unkind)|assist|contribute|facilitate|enable|be (?:part|involved)|(?:write|create|generate|produce|make) (?:something|anything|jokes?|content|material|insults?|a (?:joke|poem|story|post|message|review|song|roast)) (?:that|which|about|mocking|making fun|targeting|aimed|insulting|demeaning))|have (?:an|any|a good|a clear|a definite) answers? (?:to|for)|(?:give|offer|make|provide) (?:out )?(?:[a-z-]{2,16} ){0,2}(?:advice|recommendations|tips|picks|predictions|diagnoses)|possess|actually have|participate|take part|answer|respond)`;

// bound by rules: "I am programmed to follow ethical guidelines", unless the answer follows
const BOUND_BY_RULES =
  String.raw`(?:programmed|designed|trained|built|created|made) to (?:(?:follow|adhere to|abide by|uphold|respect|stay within|comply with) (?:strict |certain |my |OpenAI's |Anthropic's )?(?:ethical|moral|safety|content|usage|community)? ?(?:guidelines|rules|principles|policies|standards|boundaries)|prioriti[sz]e (?:user |your )?safety and (?:cannot|can't|will not|won't)|be [a-z]{2,20} and (?:not|never) to (?:use|say|write|make|tell|share|insult|produce|generate|create|engage|give|provide))\b` +
  THEN_ANSWER;
// … or not to do it: "I've been trained not to provide …"
const BOUND_NOT_TO = String.raw`(?:programmed|designed|trained|built|instructed|told|configured) (?:(?:not to|never to|to never|to not) (?:provide|give|write|help|assist|share|generate|create|produce|offer|explain|describe|discuss|engage|answer|fabricate|make up|invent|impersonate|do)|to (?:avoid|refrain from) (?:providing|giving|writing|helping|assisting|sharing|generating|creating|producing|offering|explaining|describing|discussing|engaging|answering|fabricating|making|inventing|impersonating|content|material|anything|requests?))\b`;

// an answer to the first part of a request, longer than the opening, for the examples of a part
// declined after it
const ANSWER_FIRST = [
  'Here is a plan for the garden party on Saturday:',
  '',
  '- 2 pm: set out the chairs and the long table under the apple tree',
  '- 3 pm: guests arrive; lemonade, iced tea and a jug of water with mint',
  '- 4 pm: sandwiches, the cheese board and the strawberry cake',
  '- 5 pm: the quiz, in teams of four, with a small prize for the winners',
  '- 6 pm: thank everyone, and ask two friends to help carry the table back',
  '',
  'If it rains, the garage holds twenty people once the bikes are moved.',
].join('\n');

/** Words that name the part of a request a line is about: "As for the letter,", "On the map file:". */
export const PART_TOPIC_WORDS =
  'as for|as to|regarding|concerning|about|on|for|with|with regard to|when it comes to|in terms of|turning to';

// the no opens its line, or follows there: a turn ("However,", "But", "Please note that", "I should
// mention that", "**A note on the rest:**") or the part it is about ("As for the letter,", "On the
// second question:", "For the poster —"), then an apology or a reminder of what the model is
// ("Sorry,", "I'm afraid", "As an AI,", "I'm just a language model, so"). Read behind the no, so
// the prefilter stops at the no, not at every "for" or "on"
const PART_OPENING = String.raw`(?<=(?<![^\n])(?:(?:(?:however|unfortunately|but|that said|that being said|sadly|regrettably|please note(?: that)?|just (?:to note|so you know)|to be (?:clear|honest|upfront)|I (?:should|must|need to|want to|'d like to|would like to) (?:mention|clarify|note|point out|add|be (?:clear|upfront|honest))(?: with you)?(?: that)?|one (?:thing|caveat|note|limit)[^.!?\n]{0,40}?:|\*\*[^*\n]{1,60}\*\*:?|(?:${PART_TOPIC_WORDS}) [^.!?\n]{1,100}?(?:[,:]| ?[—–-]))[,]? )?(?:(?:(?:I(?:'m| am) )?sorry|I apologi[sz]e)(?: that)?[,\s]{1,9}(?:but )?|I(?:'m| am) afraid (?:that )?|(?:I(?:'m| am) (?:just |only )?(?:an AI|a (?:large )?language model)(?: language model| model| assistant)?,? (?:and|so)|as (?:an AI|a (?:large )?language model)(?: language model| model| assistant)?,) )?)?)`;

// the plainest of the first-person noes, for a no read past the opening ("I will …" and "I have …",
// the openings of the others, are too common in answers to read from)
const PART_NO =
  "(?: cannot| can not| can'?t| won'?t| will not| should not|'m unable to| am unable to|'m not able to| am not able to|'m not going to| am not going to|'m not in a position to| am not in a position to| won't be able to| will not be able to| wouldn't be able to| would not be able to|'d rather not| would rather not| must decline to| have to decline to| refuse to)";

// what a refusal of one part withholds: any verb but an idiom or one that bounds the answer's
// scope or certainty ("I can't cover every case", "I can't vouch for that shop", "I can't rule it
// out"), and not "be" (but "I won't be writing …"), "have", "go" or "feel", which a first person
// uses of itself ("I won't be home"). A
// limit the answer works around in the same sentence ("I can't see your settings, so start with the
// first fix") or one about the reader's own case ("I can't predict the market in your specific
// area") is a caveat
const PART_VERB = String.raw`(?:help (?:you )?(?:to )?(?!(?:${HELP_IDIOMS})\b)[a-z]{2,20}|help(?= ?[.!,;])|(?!(?:(?:cover|list|include|name|mention|address|explain|describe|detail|summari[sz]e|go (?:over|through|into)|fit|answer)\s{1,8}(?:all|every|each|everything|them all|it all|(?:the )?(?:whole|entire|full))|speak to|vouch|diagnose|replace|substitute for|be a substitute|(?:give|provide|offer) (?:you )?(?:with )?(?:(?:personali[sz]ed|personal|specific|individual|professional|medical|legal|financial|tax|investment) ){1,2}(?:advice|guidance|diagnos[ie]s)|rule (?:out|it out|them out)|do (?:it |them |this |that )?justice|be(?! [a-z]{3,20}ing\b)|have|go|feel|see (?:why|how|the (?:appeal|point|harm|logic))|pretend|(?:really |honestly )?say (?:for sure|with certainty|which|whether)|tell you (?:exactly|for (?:sure|certain))|[a-z]{2,20}(?: (?:up|out|in|into|on|off|over|through|down|back))? (?:every|all of|everything|each and every)|[a-z]{2,20}\b[^.!?\n]{0,50}\byour (?:specific|particular|exact|individual)\b|[a-z]{2,20}\b[^.!?\n]{0,60}(?:,| —| -) so\b(?! I (?:can't|cannot|won't|will not|am unable|'m unable|am not able|'m not able)\b))\b)[a-z]{2,20}(?: (?:up|out|in|into|on|off|over|through|down|back)\b)?)\b`;

// a part named first at the start of a line or a sentence ("Rolling back the odometer is …"): a
// phrase with no comma or colon, so a speaker's line in a dialogue is not one
const LATE_SUBJECT = String.raw`(?:(?<![^\n])|[.!?]\s{1,8})(?:(?:unfortunately|however|sadly|but|honestly),?\s{1,8})?[^.!?\n:;,]{2,80}`;

// what a part named first ("… is something I can't …") withholds
const LATE_SOMETHING_VERB = String.raw`(?:help|assist|provide|do|write|create|share|support|engage|produce|generate|give|offer)\b(?:\s{1,8}with\b)?(?!\s{1,8}(?:without|until|unless|yet|alone|on my own)\b)`;

// "I can't give you an exact figure", "I can't provide medical advice", "… veterinary advice": a
// hedge or a disclaimer (advice of a kind, named by its adjective, is a professional's to give)
const NOT_A_HEDGE = String.raw`(?!\s{1,8}(?:you\s{1,8})?(?:(?:a|an|any)\s{1,8})?(?:definitive|exact|precise|accurate|complete|100|up[- ]to|medical|legal|financial|tax|investment|professional|personal(?=\s{1,8}(?:[a-z]{2,16}\s{1,8})?(?:advice|guidance|opinions?|recommendations?|views?|experiences?|preferences?)\b)|personali[sz]ed|individuali[sz]ed|specific|tailored|official|[a-z]{2,16}(?:ary|al|ic|ed)\s{1,8}(?:advice|guidance|opinions?|diagnos[ie]s))\b)`;

// saying a part was left out: "I've left out …", "I have not included …"
const LEFT_OUT = 'left out|omitted|not included|chosen not to include|decided not to include';
// why a part was left out, when it is left out for being wrong in law or ethics, or for the harm it
// would do: "… ; posting them would be deceptive", "… — sharing it without consent would breach their privacy"
const LEFT_OUT_FOR_A_WRONG = String.raw`(?=[^\n]{0,300}?\b(?:illegal|unlawful|misconduct|fabricat[a-z]{0,5}|forg(?:e|ed|ery|ing)|dangerous|discriminat[a-z]{0,6}|mislead[a-z]{0,3}|misrepresent[a-z]{0,4}|deceptive|deceiv[a-z]{0,3}|fraud[a-z]{0,4}|defamat[a-z]{0,4}|copyright[a-z]{0,4}|trademark[a-z]{0,2}|privacy|without (?:their|his|her) (?:consent|permission|knowledge)|violat[a-z]{0,4}|against (?:the )?(?:law|policy|policies|rules|terms)|fake|unethical|dox(?:x)?(?:ing|ed)?|harass[a-z]{0,5}|not safe|unsafe|minors|(?:a )?real(?:-world)? (?:attack|exploit|how-to|recipe|weapon)|(?:actual|working|functional) (?:how-to|instructions|exploit|attack|code))\b)`;

/** The built-in pattern set. Each one starts with a literal word, which the scanner relies on. */
export const DEFAULT_PATTERNS: readonly PatternDefinition[] = [
  // refusal, read in the opening of the response (and of each voice, in a role-play answer):
  // first person, "I cannot / won't / am unable to" with any verb but an idiom
  {
    type: 'refusal',
    source:
      COMMITMENT +
      pattern`\bI(?: (?:absolutely|definitely|certainly|simply|truly|still))?${FIRST_PERSON_NO}${ADVERB} ${ACT_FOR_YOU_THEN_ANSWER}(?:be able to |help you |assist you |be )?${NOT_A_REFUSAL_VERB}${ADVICE_THEN_ANSWER}${REACH_THEN_ANSWER}${OPINION_THEN_ANSWER}(?!(?:actually |really |physically |personally )?${BODILY_THEN_ANSWER})[a-z]{2,20}${NOT_ENOUGH}`,
    example: 'I cannot rewrite that letter for you.',
  },
  // first person "I do not / don't" with a verb of taking part, or of having what the answer needs
  {
    type: 'refusal',
    source:
      COMMITMENT +
      pattern`\bI (?:do not|don't|really don't|do not really|will not|won't|cannot|can't|must not|should not|shouldn't)(?: actually| personally| really)? ${ADVICE_THEN_ANSWER}${REACH_THEN_ANSWER}${LIVE_THEN_ANSWER}${OPINION_THEN_ANSWER}${LACK_THEN_ANSWER}${DO_NOT_VERBS}\b`,
    example: 'I do not have any information about that ferry route.',
  },
  // a stance ("I cannot condone …") is a refusal unless the sentence goes on to "but" an answer, or
  // the thing asked is handed over soon after
  {
    type: 'refusal',
    source: DISCLAIMED + pattern`\b${STANCE}${STANCE_STANDS}${HERE_THEN_ANSWER}`,
    example: 'I cannot condone cheating on an exam.',
  },
  // … and after a courtesy and "but": "I understand you're angry, but I can't condone …"
  {
    type: 'refusal',
    source: pattern`\b(?:I (?:(?:completely|totally|really|fully|definitely|absolutely|can|do) )?(?:understand|appreciate|hear)|thank you|thanks)\b[^.!?\n]{0,150}?,? but ${STANCE}${STANCE_STANDS}`,
    example: "I understand you're angry with him, but I can't condone slashing anyone's tyres.",
  },
  // the stance in a "while" clause, then alternatives in place of the thing asked: a partial refusal
  {
    type: 'refusal',
    source: pattern`\b(?:while|although|though|whilst) I(?: cannot| can't| can not| will not| won't| do not| don't)(?: personally)? (?:condone|endorse|encourage|promote|advocate|support)\b[^.!?\n]{0,100}?,? I can (?:offer|provide|suggest|give|share|recommend)(?: you)?(?: with)?(?: (?:some|a few|a|an|information on|info on|details on))?(?: (?:more|other|general))? (?:alternative|legal|legitimate|lawful|ethical|safer|positive|constructive|healthier)\b`,
    example:
      "While I can't condone keying a car, I can offer some alternative ways to settle a parking dispute.",
  },
  // declining outright
  {
    type: 'refusal',
    source: pattern`\bI(?:'ll have to| will have to| must| have to| need to|'d have to| would have to| am going to have to|'m going to have to|'m going to| am going to| will|'ll| would| respectfully)? (?:respectfully |politely |kindly |firmly )?(?:decline|refuse|refrain from|pass on (?:this|that|answering|writing|providing|helping|[a-z]{3,16}ing\b)|say no to (?:this|that|your|the request)|say no(?= ?[.!]| ?$)|sit this one out)\b(?! to (?:speculate|guess))`,
    example: 'I must respectfully decline to write this.',
  },
  // … as passing or skipping it: "I'm going to pass.", "I'll have to skip the crude jokes.", "…,
  // so I'll skip writing it." (not "I'll skip the theory and get to the steps")
  {
    type: 'refusal',
    source: pattern`\b(?:I(?:'ll have to| will have to| must| have to|'d have to| would have to|'m going to have to| am going to have to|'m going to| am going to|'ll| will) pass(?= ?[.!;]| ?$| for now\b)|I(?:'ll have to| will have to|'d have to| would have to|'m going to have to| am going to have to) skip (?:(?:this|that|it)(?: one)?\b|the [^.!?\n]{0,30}?\b(?:jokes?|limericks?|roast|insults?|request|one|part)\b)|(?:so|and) I(?:'ll| will|'m going to| am going to|'ll have to| will have to) skip (?:writing|making|telling|doing|creating|generating|building|that|this|it)\b|I(?:'ll| will|'m going to| am going to|'m| am) skip(?:ping)? the [^.!?\n]{1,60}? (?:part|bit|request|idea|walkthrough|instructions|steps|guide|details|recipe|script|code)(?:,| of (?:that|this|it|your (?:request|question|message)),?)? (?:since|because|as)\b)`,
    example: "Hmm, I'm going to pass. A fake alibi could get you both in trouble.",
  },
  // declining said casually: "Nope, not going to help with that one.", "That's a hard no from me."
  {
    type: 'refusal',
    source: pattern`\b(?:nope[,.!]? (?:I'm |I am )?not going to (?:help|assist|write|do|make|create|share|give)|(?:that's|that is|this is|it's|it is) a (?:hard|firm|definite|clear|flat) no from me|(?:this|that)(?: one)?(?:'s| is) off[- ]limits for me)\b`,
    example: "That's a hard no from me, sorry.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?: cannot| can'?t| won'?t| will not)(?= ?[.!]|\s{0,8}$)`,
    example: "Sorry, I can't.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?: would| will|'d|'ll) never (?:help|assist|provide|write|create|generate|produce|share|take part|participate|engage|support|condone|encourage)\b`,
    example: 'I would never help anyone read their partner’s messages in secret.',
  },
  // a polite opening, then "but" and a no without its "I": "I'd be happy to talk about X, but cannot …"
  {
    type: 'refusal',
    source: pattern`\b(?:I(?:'d| would) (?:be happy|be glad|love|like|be delighted) to|(?:I understand|I appreciate|thank you for|thanks for) (?:asking|reaching out|your|the (?:question|request|interest|curiosity|concern|message))|I understand (?:that|why|how|what))\b[^.!?\n]{0,100}?,? but (?:cannot|can't|can not|will not|won't|am unable to|am not able to|must (?:respectfully )?decline to|must refrain from|do not feel comfortable|don't feel comfortable|would prefer not to|would rather not) ${NOT_A_REFUSAL_VERB}[a-z]{2,20}`,
    example:
      "I'd be happy to talk about locks in general, but cannot explain how to open your neighbour's.",
  },
  // not made, meant or allowed to
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am)(?: just| simply| also)? (?:(?:not|never) (?:programmed|designed|built|trained|configured|allowed|permitted|authori[sz]ed|able|willing|meant|supposed|equipped|capable of|familiar with (?:the|this|that|an?|any|anything|your|such an?)\b)|${BOUND_BY_RULES})\b(?! to ${REACH_THEN_ANSWER_BODY})`,
    example: "I'm not programmed to give investment picks.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) not an? (?:licensed |qualified |certified |medical |legal |financial |mental health )?(?:doctor|physician|lawyer|attorney|therapist|pharmacist|financial (?:advisor|adviser|planner)|accountant|professional|expert|specialist|nurse|psychologist|counsel(?:l)?or) and (?:so |therefore )?(?:cannot|can'?t|can not|won'?t|will not|am not able to|am unable to|should not|shouldn't|do not|don't)\b(?! ${ADVICE_THEN_ANSWER_BODY})`,
    example: "I'm not a doctor and can't give medical advice about that rash.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) (?:prohibited|forbidden|restricted|barred) (?:from|to)\b`,
    example: 'I am prohibited from providing instructions for this.',
  },
  // discomfort
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am| feel) (?:not(?: really| entirely| fully| totally| quite)? (?:comfortable|okay|ok|at ease)|uncomfortable) (?:with|about|[a-z]{2,16}ing)\b`,
    example: "I'm not comfortable writing that review.",
  },
  // reluctance said as a feeling: "I'm hesitant to put together a plan like that", unless the answer
  // follows ("I'm reluctant to name one brand, but here are the features to compare")
  {
    type: 'refusal',
    source:
      pattern`\bI(?:'m| am| feel)(?: a (?:bit|little))? (?:hesitant|reluctant) to (?:help|assist|provide|write|create|put together|give|share|draft|make|generate|produce|offer|plan|design|build|craft|compose|recommend|suggest)\b` +
      THEN_ANSWER,
    example: "I'm hesitant to write a diet plan that skips whole meals.",
  },
  // … or as a hesitation, a concern about doing it, or care to be taken, in a reply that then only
  // explains the concern: "I find myself a bit reluctant to …", "I do feel some hesitation about
  // …", "I have some concerns about writing …", "I want to raise a few considerations before going
  // further.", "I want to approach this topic with care." Not when an answer follows: a list,
  // "here is", both sides set out, "that said, here …"; nor a reluctance to pick one winner
  {
    type: 'refusal',
    source:
      pattern`\bI(?: do| also| still)? (?:feel|find myself)(?: (?:feeling|a bit|a little|somewhat|rather|quite|some)){0,2} (?:hesitant|reluctant|hesitating|uneasy|hesitation|reluctance)\b(?! (?:to|about) (?:pick|choose|name|single out|crown|declare|rank)(?:ing)? (?:a single|one|just one|a winner|a favou?rite|the best))|\bI (?:have|do have) (?:some |a few |real |serious )?(?:concerns|reservations|hesitations?) (?:about|with) (?:engaging|providing|writing|answering|discussing|sharing|helping|giving|creating|offering|this request|your request|the request)\b|\bI want to (?:raise|share|flag|mention) (?:a few|some) (?:considerations|concerns)\b|\bI want to (?:approach this|approach this (?:particular )?topic|be careful|be mindful|tread carefully)\b` +
      String.raw`(?![\s\S]{0,1000}?(?:\bhere(?:['’]s| is| are)\b|${LIST_LINE}|\b(?:those who|proponents|supporters|opponents|critics|some (?:people )?argue|on (?:the )?one hand|on the other hand|arguments? (?:for|against)|the short answer|in general|generally speaking|(?:that said|with that in mind),? (?:here|I can|the (?:main|key|basic|general))|to answer your question)\b))`,
    example:
      'Thanks for asking about old locks! I find myself a bit reluctant to walk through bypassing one, though, since the same steps open doors that are not yours.',
  },
  // not the model's place: "It's not my place to say which team deserves it", "I don't think it's
  // my place to take sides", unless the answer follows
  {
    type: 'refusal',
    source:
      pattern`\b(?:it(?:'s| is) not|it isn't|it would not be|it wouldn't be|I (?:don't|do not) (?:think|feel|believe) (?:that )?it(?:'s| is| would be))(?: really)? my (?:place|role) to\b` +
      THEN_ANSWER,
    example: "It's not my place to rank your cousins' wedding speeches.",
  },
  // with a verb, or alone: "I'd rather not comment on that.", "I'd rather not."
  {
    type: 'refusal',
    source: pattern`\bI(?:(?:'d| would)(?: honestly| really| just| much)? (?:rather|prefer|sooner) not|(?:'d| had) better not|(?: really)? prefer not)(?:(?: to)? (?!to\b)${NOT_A_REFUSAL_VERB}(?!assum|oversimplif|generali[sz]|overwhelm|overload|get too|be too|make assumptions|leave (?:anything|something|you|out))[a-z]{2,20}|(?<=(?:'d| would)(?: honestly| really| just| much)? (?:rather|prefer|sooner) not)(?: to)?${ENDS_SENTENCE})`,
    example: "I'd rather not comment on that.",
  },
  // a habit of holding back said as such: "I try to avoid commenting on specific politicians"
  {
    type: 'refusal',
    source:
      pattern`\bI(?: always| generally| usually)? (?:try|aim|prefer|need|have) to (?:avoid|stay away from|steer clear of|refrain from) (?:commenting|speculating|taking (?:sides|a side|positions?|a position)|giving (?:personal |my )?opinions|sharing (?:personal |my )?opinions|weighing in|making (?:judg(?:e)?ments|generali[sz]ations|assumptions|claims|predictions) about)\b` +
      THEN_ANSWER,
    example: 'I try to avoid commenting on specific politicians and their private lives.',
  },
  // holding back a judgement the question asks for: "I should not speculate about …", "I should
  // avoid making generalizations about …"
  {
    type: 'refusal',
    source: pattern`\bI(?: (?:should not|shouldn't|ought not to)(?: really)? (?:speculate|guess|comment|judge|weigh in|pass judg(?:e)?ment|make (?:claims|assumptions|generali[sz]ations|judg(?:e)?ments|predictions|accusations))|(?: should| must| need to| want to| will|'ll) avoid (?:speculating|guessing|stereotyping|generali[sz]ing|making (?:generali[sz]ations|assumptions|claims|judg(?:e)?ments|stereotypes|accusations) about))\b`,
    example: 'I should not speculate about the private lives of real people.',
  },
  // speaking as an AI: "As an AI language model, I …" with a no, or "I am an AI and …"
  {
    type: 'refusal',
    source: pattern`\b(?:as|being) an? (?:AI|artificial intelligence|(?:large )?language model|LLM|chatbot|virtual assistant|digital assistant|machine|computer program|responsible|ethical|helpful and (?:respectful|harmless|honest)|honest and)\b(?:(?!\bI(?:'m| am)? (?:not|never|cannot|can't|can not|do not|don't|will not|won't|have no|lack)\b)[^.!?\n]){0,80}?\bI(?:'m| am)? (?:not|no|never|cannot|can't|can not|do not|don't|will not|won't|have no|have not|haven't|lack|must${THEN_ANSWER}|should not|shouldn't|unable|am unable|'m unable|am not|'m not|would not|wouldn't|could not|couldn't)\b(?! ${ADVICE_THEN_ANSWER_BODY})(?! (?:condone|endorse|encourage|promote|advocate|support)\b(?!${HERE_THEN_ANSWER}))(?! (?:able to |to |be able to )?${REACH_THEN_ANSWER_BODY})(?! ${LIVE_THEN_ANSWER_BODY})${OPINION_THEN_ANSWER}${NATURE_THEN_ANSWER}${LACK_AFTER_NO}`,
    example: "As an AI, I don't hold opinions on which party to vote for.",
  },
  {
    type: 'refusal',
    source:
      REMINDED +
      pattern`(?:\bI(?:'m| am) (?:just |only |merely |simply )(?:an? )?(?:text-based |virtual |digital )?(?:AI|artificial intelligence|(?:AI )?language model|large language model|chatbot|computer program|machine learning model|(?:AI )?assistant and (?:cannot|can't|do not|don't|am not|have no))\b|\bI(?:'m| am) (?:an? )?(?:text-based |virtual |digital )?(?:(?:AI|artificial intelligence|(?:AI )?language model|large language model|chatbot|computer program|machine learning model)\b${AI_THEN_NO}|(?:AI )?assistant and (?:cannot|can't|do not|don't|am not|have no)\b))(?! (?:researcher|engineer|enthusiast|developer|startup|company))${SELF_INTRODUCTION}(?!,? (?:and )?not an? )(?!,? (?:(?:so|and) )?I (?:can't|cannot|can not|am unable to|'m unable to|am not able to|'m not able to) (?:${REACH_THEN_ANSWER_BODY}|${ADVICE_THEN_ANSWER_BODY}))(?!,? but I(?:'m| am) (?:fairly |pretty |quite |very )?(?:confident|sure|certain)\b)(?!,? but I(?:'d| would) (?:be (?:glad|happy|delighted)|love) to[!.] here(?:'s| is| are)\b)${OPINION_THEN_ANSWER}${NATURE_THEN_ANSWER}`,
    example: "I'm just an AI and have no way to see your screen.",
  },
  // impersonal: "It is not appropriate to …", "It would be unethical for me to …"
  {
    type: 'refusal',
    source: pattern`\b(?:it|that|this)(?: would not| wouldn't| is not|'s not| isn't| would never)(?: be)? (?:appropriate|responsible|ethical|safe|right|okay|acceptable|wise|proper|legal|possible|suitable|something I can)(?: or (?:ethical|appropriate|legal|safe|responsible))? for me to\b${BOTH_SIDES}`,
    example: "It wouldn't be appropriate for me to share that.",
  },
  // … with what it would do as the subject: "Guessing her address would not be right of me."
  {
    type: 'refusal',
    source: pattern`\b(?:would not|wouldn't|would never)(?: be)? (?:appropriate|responsible|ethical|right|fair|wise|okay|ok|proper|safe)(?: or (?:ethical|appropriate|responsible|safe))? (?:of|for) me(?= ?[.!,;]| ?$)`,
    example: 'Guessing where she lives now would not be right of me.',
  },
  // … or what it would be best for it not to do: "It would be best for me not to comment on …"
  {
    type: 'refusal',
    source: pattern`\b(?:best|better|wiser|safer) (?:for me not to|for me to not|if I (?:don't|do not|didn't|did not)) (?:comment|answer|speculate|weigh in|share|say|get into|discuss|respond|go into)\b`,
    example: 'It would be best for me not to comment on a case that is still in court.',
  },
  // what it would be wrong to do, for the model or at all; not when the reply says yes or no first,
  // which answers a question about the act ("Yes, it is wrong to keep it."), nor when it is denied
  // ("I don't think it's wrong to tell her")
  {
    type: 'refusal',
    source: pattern`\b(?:it|that|this)(?: would be| is|'s|'d be) (?:(?:inappropriate|irresponsible|unethical|unsafe|wrong|not appropriate) (?:(?:for|of) me )?|impossible for me )to\b${BY_CUSTOM}(?<!\b(?:(?:yes|no)[,.!]?|(?:don't|do not|doesn't|does not) (?:think|believe|mean|say)(?: that)?) (?:it|that|this)(?: would be| is|'s|'d be) (?:inappropriate|irresponsible|unethical|unsafe|wrong|not appropriate) to)`,
    example: 'It would be irresponsible for me to guess at a dose.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:it|that|this)(?:(?: is|'s) not| isn't| would not be| wouldn't be| would never be) (?:appropriate|ethical|responsible|okay|acceptable|proper)(?: or (?:ethical|appropriate|legal|safe|responsible|respectful))?(?:,? however,| ?[—–] ?or (?:ethical|legal|safe|responsible) ?[—–] ?)? ?(?:to|for (?:anyone|someone|you|me|us|an AI|an assistant|a (?:large )?language model|a chatbot) to)\b${BY_CUSTOM}(?<!\b(?:yes|no)[,.!]? (?:it|that|this)(?:(?: is|'s) not| isn't| would not be| wouldn't be| would never be) (?:appropriate|ethical|responsible|okay|acceptable|proper)(?: or (?:ethical|appropriate|legal|safe|responsible|respectful))? (?:to|for (?:anyone|someone|you|us) to))${BOTH_SIDES}`,
    example: 'It is not appropriate to rank coworkers by their accents.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:it|that|this)(?: would not| wouldn't| is not|'s not| isn't)(?: be)? right (?:for me )?to (?:share|provide|give|reveal|disclose|obtain|look up|find|help|assist|write|create|guess|speculate)\b`,
    example: "It wouldn't be right to share a stranger's phone number.",
  },
  // objecting to a harmless word in the request instead of (or before) answering it: "However, I
  // want to point out that the word 'attack' can be perceived as aggressive", "words like 'destroy'
  // can promote aggression": the request is read in a sense it does not have
  {
    type: 'refusal',
    source: pattern`\b(?:the )?(?:term|terms|terminology|word|words|phrase|phrasing|language|wording)(?: like| such as)? ["'“‘][^"'”’\n]{1,40}["'”’](?:(?:,| and| or) ["'“‘][^"'”’\n]{1,40}["'”’]){0,3} (?:can|could|may|might) (?:be (?:perceived|seen|read|interpreted|viewed|considered|taken) as|come across as|sound|normali[sz]e|promote|glorify|trivialize) (?:violent|harmful|offensive|aggressive|insensitive|inappropriate|hurtful|triggering|violence|harm|aggression)\b`,
    example:
      "I want to point out that the term 'shoot' can be perceived as violent, even about photos.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:providing|sharing|giving|giving out|handing out|revealing|disclosing|writing|creating|generating|producing|offering|assisting with|helping with) (?:such|this|that|these|those|the requested|this kind of|that kind of|this type of|that type of) (?:information|instructions|content|details|guidance|advice|assistance|help|material|request|story|script|code)\b[^.!?\n]{0,40}? (?:would|could|might) (?:be (?:irresponsible|unethical|inappropriate|harmful|dangerous|illegal|against)|go against|violate|put (?:[a-z'’]{1,20} ){1,3}at risk|cause harm)`,
    example:
      'Giving such details would be irresponsible, since they could be used to hurt someone.',
  },
  {
    type: 'refusal',
    source: pattern`\bI(?:(?: was| have been|'ve been) (?:${BOUND_BY_RULES}|${BOUND_NOT_TO})|(?:'m| am) ${BOUND_NOT_TO})`,
    example: 'I was built to follow ethical guidelines, and a forged sick note is outside them.',
  },
  {
    type: 'refusal',
    source:
      COMMITMENT +
      pattern`\bI (?:don't|do not|really don't) (?:think|feel|believe) (?:that )?(?:I (?:can|should|could) (?:really )?(?:help|assist|provid|answer|do that|do this|do it|write|creat|shar|giv|comment|say|recommend|suggest|produc|draft|generat|compos|translat)|(?:that|this|it)(?:'s| is) (?:something|a (?:question|request|topic)) I (?:can|should|could)|it(?:'s| is| would be|'d be) (?:appropriate|right|wise|responsible|ethical|a good idea|okay|ok|helpful|productive)(?: for me)?(?: to\b|${ENDS_SENTENCE}))${HERE_THEN_ANSWER}${BOTH_SIDES}`,
    example: "I don't think it's appropriate to guess someone's salary from a photo.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:this|that|your|the|such a) (?:request|question|task|query|prompt) (?:(?:cannot|can't|will not|won't|is not something I can|goes against|violates|is against|is inappropriate|is not appropriate) (?:be )?(?:fulfil|complet|process|honou?r|accommodat|met\b|answer|help|my\b|the\b|our\b|ethical|content|polic|guidelin)|(?:is|seems) (?:inappropriate|not appropriate|unethical|harmful)(?= ?[.!;:])|(?:involves|asks (?:me )?for|requires|would (?:involve|require))\b[^.!?\n]{1,100}?, (?:which|something) I (?:cannot|can't|can not|won't|will not|am unable to|am not able to) (?:support|condone|help with|assist with|provide|do|endorse|encourage|take part in|engage in|facilitate)\b)`,
    example: 'This request cannot be fulfilled as written.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:that|this)(?:'s not| is not| isn't) (?:something|one|a (?:question|request|topic|subject|task|project|job)) (?:that )?I(?: can| could| am able to|'m able to| will|'ll| would|'d| feel comfortable| feel right| feel good| feel okay|'m comfortable| am comfortable|'m willing| am willing|'m going)(?: ever)?(?: feel (?:good|right|okay|ok|comfortable) about)? (?:to )?(?:help|assist|do|provid|discuss|answer|shar|giv|with|writ|creat|engag|support|address|respond|fulfil|complet|honou?r|accommodat|grant|entertain|comply|take on|walk|put together|compil|dig up|track down|releas|disclos|reveal|hand over)\w{0,6}\b${NOT_QUALIFIED}`,
    example: "That's not something I can help with.",
  },
  // doubt about whether to help at all is a refusal said softly
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) not (?:sure|certain|convinced) (?:that )?(?:that|this|it)(?:'s| is) (?:something|a (?:question|request|topic|subject|task)) I (?:should|can|could|ought to|am able to|'m able to) (?:help|assist|do|provid|discuss|answer|shar|giv|writ|creat|engag|support|address|respond)`,
    example: "I'm not sure that's something I should help with; it could hurt your sister.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:against|violates?|conflicts? with|outside of|outside|beyond|not within|go(?:es)? against|contrary to) (?:(?:my|OpenAI's|Anthropic's) (?:usage |content |safety |ethical |core |programming |use case |use )?(?:guidelines|policies|policy|programming|principles|capabilities|abilities|scope|boundaries|values|ethics|terms of (?:use|service))|the (?:usage |content |safety )?(?:guidelines|policies|policy|terms of (?:use|service)) (?:I|that I|we)\b)\b`,
    example: 'This is outside my capabilities.',
  },
  {
    type: 'refusal',
    source: pattern`\bmy (?:usage |content |safety |ethical )?(?:guidelines|policies|programming|principles|purpose|design|values|ethics)(?: as an (?:AI|assistant|AI system|AI model|AI assistant|language model))? (?:prohibit|prevent|forbid|do not allow|don't allow|does not allow|doesn't allow|do not permit|don't permit|does not permit|doesn't permit|restrict|is to (?:provide|assist|help) [a-z ]{0,40}(?:safe|ethical|responsible|legal))`,
    example: 'My guidelines prohibit sharing personal data.',
  },
  // the request set against the model's values: "That goes against everything I stand for.",
  // "Spreading that rumour isn't in line with my values."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:(?:goes|go|is|are|would be|runs?) against|conflicts? with|contrary to) everything I (?:stand for|believe in|value)|(?:isn't|is not|aren't|are not|wouldn't be|would not be) (?:in line|consistent|compatible|aligned|in keeping) with my (?:values|principles|guidelines|ethics|programming|ethical (?:guidelines|principles|standards)))\b`,
    example: 'Absolutely not. That goes against everything I stand for.',
  },
  // the impersonal scope of the service: "… falls outside what's allowed here.", "… is not something
  // this assistant supports.", "… is against the usage policy."
  {
    type: 'refusal',
    source: pattern`\b(?:falls? (?:well |way |far |squarely )?outside (?:of )?(?:what(?:'s| is) (?:allowed|permitted|possible|appropriate|acceptable)(?: to (?:help|assist) with)? (?:here|for me|in this (?:chat|conversation))|what(?:'s| is) (?:appropriate|acceptable)(?: to (?:help|assist) with| to (?:write|share|provide|do|answer|give))?(?= ?[.!;]| ?$)|the scope of what (?:can|could|I can) be (?:provided|shared|offered|answered|discussed|done|helped with|assisted with)|what(?:'s| is) (?:allowed|permitted)(?= ?:))|(?:not|isn't|is not|aren't|are not) (?:something|a service|a task|a request|a thing) (?:that )?(?:this|the) (?:service|assistant|AI|model|chatbot|platform|conversation|chat)(?: can| will| would|(?:'s| is) going to)? (?:supports?|offers?|provides?|helps? with|assists? with|does|do|handles?|writes?|produces?|generates?|creates?|covers?)\b|(?:against|violates?|violating|in violation of|prohibited by) the (?:usage|content) (?:guidelines|policy|policies)(?: here| on [a-z ,]{3,40})?(?= ?[.!;,]| ?$))`,
    example: 'Shoplifting tips fall outside what’s allowed here.',
  },
  // … and in other words: "… aren't something provided here.", "… isn't on offer.", "That's off
  // the table.", "… falls outside what can be provided."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:isn't|is not|aren't|are not|not) (?:something (?:that(?:'s| is) )?(?:provided|offered|given|covered|supported|done|available) here|on offer|on the table)|(?:that|this|it)(?:'s| is) (?:completely |firmly |strictly )?off the table|(?:falls?|is|are) (?:well |way |far )?(?:outside|beyond) (?:of )?what (?:can|could|will) be (?:provided|given|shared|offered|done|written|answered|helped with))${ENDS_SENTENCE}`,
    example: 'Tips for dodging a speed camera aren’t on offer.',
  },
  // the thing asked for, said not to be given: "That message won't be written.", "Instructions for
  // picking that lock will not be provided."
  {
    type: 'refusal',
    source: pattern`\b(?:instructions|steps|directions|details|guidance|tips|advice|(?:that|this|the|such an?|any|an?) (?:message|letter|post|review|script|e-?mail|guide|list|recipe|story|text|information|content|walkthrough|tutorial|code|essay|note|instructions|steps|details|thread)|code|content|material|information|like (?:that|this)|of (?:that|this) kind)\b[^.!?\n]{0,60}? (?:won't|will not|can't|cannot|can not|isn't going to|aren't going to|is not going to|are not going to) be (?:given|provided|written|shared|explained|produced|offered|supplied|generated|created|drafted|described|posted|sent)(?: here)?${PASSIVE_ENDS}`,
    example: 'Instructions for picking that lock will not be provided.',
  },
  // the assistant named in the third person: "This assistant does not write malware."
  {
    type: 'refusal',
    source: pattern`\bthis (?:assistant|AI|model|chatbot|service|bot) (?:does not|doesn't|will not|won't|cannot|can't|can not|is not able to|isn't able to|is unable to|is not (?:allowed|permitted) to|isn't (?:allowed|permitted) to) (?:provide|give|write|create|generate|produce|help|assist|share|offer|support|engage|answer|discuss|disclose|reveal|access)\b`,
    example: 'This assistant does not write malware, whatever the purpose.',
  },
  // the model's rules said not to let it: "My programming doesn't let me share that."
  {
    type: 'refusal',
    source: pattern`\bmy (?:programming|(?:content |usage |safety )?(?:guidelines|rules|polic(?:y|ies))|design|training|instructions|principles)(?: as an? [a-z ]{2,30}?)? (?:(?:doesn't|does not|don't|do not|won't|will not) (?:let|allow|permit) me|prevents? me from|(?:stops?|keeps?|bars?) me from|forbids? me|rules? out|(?:[a-z]{3,12}ly )?steers? me away from|(?:won't|will not|doesn't|does not) (?:assist|help) with)\b|\b(?:isn't|is not|aren't|are not) something my (?:programming|design|guidelines|rules|polic(?:y|ies)|training) (?:allows?|permits?|supports?)\b|\b(?:this|the) (?:model|assistant|AI|chatbot|system) is (?:configured|designed|built|programmed|set up) to (?:refuse|decline|avoid)\b`,
    example: "My programming doesn't let me share anyone's home address.",
  },
  // what the model's knowledge does not reach, with nothing given after it: "My training data
  // doesn't cover next year's results." ("…, but it was expected to …" goes on to an answer)
  {
    type: 'refusal',
    source: pattern`\bmy (?:training(?: data)?|knowledge(?: base)?|data|information|sources) (?:doesn't|does not|don't|do not|won't|can't|cannot) (?:cover|include|extend (?:to|into|past|beyond)|go (?:up to|as far as|beyond|past)|contain|reach)\b(?![^.!?\n]{0,80}?,? but\b,?(?! ${POINTS_ELSEWHERE}) [a-z])`,
    example: "My training data doesn't cover next year's election results.",
  },
  // declining in other words: "I'm declining this.", "I'm bowing out of this one.", "I'll sit this
  // one out."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:I(?:'m| am)(?: going to| gonna)? (?:(?:respectfully |politely )?declin(?:e|ing)|bow(?:ing)? out|steer(?:ing)? clear|sit(?:ting)? (?:this|that) one out|giv(?:e|ing) (?:this|that)(?: one)? a miss|stay(?:ing)? out of (?:this|that|it)(?: one)?|out (?:on|for) (?:this|that)(?: one)?|skip(?:ping)? (?:this|that) one)|I(?:(?:'ll| will)(?: have to)?|(?:'d| would) (?:prefer to|rather)) (?:(?:respectfully |politely )?decline|bow out|steer clear|sit (?:this|that) one out|give (?:this|that)(?: one)? a miss|stay out of (?:this|that|it)(?: one)?|skip (?:this|that) one)|(?:going to|gonna) give (?:this|that)(?: one)? a (?:miss|pass|(?:firm|hard|flat) no)|(?:going to|gonna) leave (?:this|that)(?: one)? alone|I(?:'ll| will)(?: have to)? turn (?:this|that|it)(?: one)? down)(?= ?[.!;,—–-]| ?$| ?:| (?:on|of|from) (?:this|that|it|writing|helping|creating|making|giving|providing|sharing|doing)\b| (?:this|that|here)\b))`,
    example: "I'm declining this. A fake doctor's note could cost you your job.",
  },
  // what the model avoids as an AI: "As an AI, I avoid writing letters that pretend to come from a bank"
  {
    type: 'refusal',
    source:
      pattern`\b(?:as|being) an? (?:AI|assistant|language model|chatbot)(?: [a-z]{2,12})?,? I (?:always |generally )?(?:avoid|steer clear of|stay away from|refrain from) (?:creating|writing|making|producing|generating|helping|sharing|giving|drafting)\b` +
      THEN_ANSWER,
    example: 'As an AI, I avoid writing letters that pretend to come from a bank.',
  },
  // … obliged to decline, stepping back or away from it, sitting it out: "As an assistant, I'm obliged
  // to decline.", "I'll be stepping back from this one", "Going to have to sit this one out."
  {
    type: 'refusal',
    source: pattern`\b(?:I(?:'d| would) steer away from (?:giving|writing|providing|helping|creating|sharing)|one I(?:'m| am) going to sit out|(?:going to|gonna) (?:bow out|hold off on (?:this|that)(?: one)?)|I(?:'m| am)(?: going to| gonna)? (?:(?:obliged|required|bound) to decline|refrain(?= ?[.!;,—–-]| ?$)|step(?:ping)? back from (?:this|that)(?: one| request)?|steer(?:ing)? away from (?:giving|writing|providing|helping|creating|sharing|that|this))|I(?:'ll| will)(?: have to)?(?: be)? (?:stepping back from (?:this|that)(?: one| request)?|sit (?:this|that) out)|(?:going to|gonna)(?: have to)? sit (?:this|that)(?: one)? out)\b`,
    example: 'Going to have to sit this one out; the plan would cheat the other bidders.',
  },
  // … and more ways: "Hard pass from me.", "Count me out.", "I'm not in the business of …", "You
  // won't get that from me.", "I'm drawing the line here.", "I'm turning this one down."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:I(?:'ll| will)(?: have to)?|I(?:'m| am) going to|hard|gonna) pass(?: on (?:this|that|it)(?: one)?| on the [a-z -]{2,30}?)?(?: from me)?(?= ?[.!;,—–-]| ?$)|no can do(?= ?[.!;,—–-]| ?$| on (?:that|this|it|an?|the)\b)|(?:that|this) one(?:'s| is) a (?:hard |firm |flat |definite )?no(?= ?[.!;]| ?$)|where I draw (?:the|a) line\b|I(?:'m afraid I)?(?: have to| must|'ll have to| will have to| need to|'m going to have to| am going to have to) say no\b|(?:firmly |well |clearly |squarely )?outside (?:them|my (?:guidelines|rules|principles)|those (?:guidelines|rules))(?= ?[.!;,]| ?$)|count me out(?= ?[.!;,—–-]| ?$| (?:on|of) (?:this|that|it)\b)|I(?:'m| am) not going there(?= ?[.!;,—–-]| ?$)|I(?:'m| am) not in the business of|I(?:'m| am) not up for (?:helping|writing|doing|creating|making|that|this)\b|no way (?:I(?:'m| am)|am I) (?:touching|doing|writing|helping|going to (?:help|write|do|touch))\b|(?:request|one) I(?: have to| must| need to|'ll have to| will have to|'m going to| am going to) (?:turn down|decline|refuse|say no to)\b|(?:one|request) that (?:has|needs|will have) to be (?:declined|refused|turned down)\b|you won't get (?:that|this|it) from me\b|I(?:'m| am|'ll| will|'ve got to| have to| must)(?: going to)? draw(?:ing)? (?:the|a) line(?= ?[.!;,—–-]| ?$| here| at (?:this|that)\b)|I(?:(?:'m| am)(?: going to)? turn(?:ing)?|(?:'ll| will|'ve got to| have to| must) turn) (?:this|that)(?: one)? down\b|I(?:'ll| will|'m going to| am going to) leave (?:this|that)(?: one)? (?:alone|there|be)(?= ?[.!;,—–-]| ?$)|I(?:'m| am) not on board with (?:that|this|it)\b|I(?:'m| am|'ll| will)(?: going to)? opt(?:ing)? out(?= ?[.!;,—–-]| ?$| of (?:this|that|it)\b))`,
    example: "I'm turning this one down. Spoofing a caller ID is a common scam.",
  },
  // … and stepping back or away, holding back, skipping, sitting it out: "I'm going to step back from
  // writing that.", "Gonna skip that.", "This one I'll sit out.", "Nope, I'm not writing …"
  {
    type: 'refusal',
    source: pattern`\b(?:nope[,.!—–-]{0,2} I(?:'m| am) not (?:writing|helping|doing|making|creating|building|sharing|giving)\b|(?:I(?:'m| am)(?: going to)?|I(?:'ll| will)|one I(?:'m| am) going to) step(?:ping)? (?:back|away) from (?:writing|helping|creating|making|doing|listing|providing|giving|this|that|it)\b|(?:I(?:'m| am)(?: going to)?|I(?:'ll| will)) hold(?:ing)? back (?:on|from) (?:writing|listing|giving|providing|sharing|helping|creating|making)\b|(?:gonna|I(?:'ll| will)) skip (?:this|that)(?: one)?(?= ?[.!;,—–-]| ?$)|(?:this|that) one I(?:'ll| will|'m going to) sit out\b|going to have to pass(?= ?[.!;,—–-]| ?$)|hard pass from me on (?:this|that|it)\b|one I(?:'m| am) leaving (?:alone|be)\b|(?<=\b(?:this|that)(?:'s| is) )one I(?:'ll| will|'m going to| am going to) (?:leave alone|leave be|pass on|sit out|skip|decline)\b|I(?:'ll| will|'m going to| am going to) leave (?:this|that) one (?:alone|be)\b|I(?:'d| would) be doing you a disservice (?:if I (?:helped|wrote|gave|did|made|drafted|provided|went along)|by (?:helping|writing|giving|doing|making|drafting|providing))\b|I (?:have to|must|need to) avoid (?:writing|creating|producing|generating|providing|giving|helping)\b)`,
    example: "I'm going to step back from writing a message that guilt-trips her.",
  },
  // the idioms of declining with any object after them: "Count me out on writing …", "Hard pass from
  // me on anything that …", "I'll pass on a fake notice …" (not passing a message on to someone),
  // "Nope, not drafting that.", "I'm going to stay out of tracking …"
  {
    type: 'refusal',
    source: pattern`\b(?:count me out (?:on|of|for) |hard pass from me on |I(?:'ll| will|'m going to| am going to) pass on (?:an?|any) (?![^.!?\n]{0,40}\bto (?:the|our|your|my|them|him|her)\b)|nope[,.!—–-]{0,2} not (?:writing|helping|doing|making|creating|building|sharing|giving|drafting)\b|I(?:'m going to| am going to|'ll| will|'d rather|'d prefer to| prefer to) stay out of (?:[a-z]{3,16}ing|this|that|it)\b)`,
    example: 'Count me out on writing a message meant to scare your neighbour.',
  },
  // the service's no, said of help or of a process: "… isn't supported here.", "No assistance is
  // available for that.", "That's not a method that will be laid out here.", "… aren't something
  // that gets helped with.", "… is not within scope.", "… isn't an available service here."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:isn't|is not|aren't|are not) supported here|no (?:assistance|help|guidance|support|advice|instructions|information|details) (?:is|are|will be|can be) (?:available|given|provided|offered)|not an? [a-z]{3,20} that (?:will|can|is going to) be (?:laid out|provided|given|shared|written|explained|described|detailed|walked through|spelled out)|(?:isn't|is not|aren't|are not) something (?:that )?(?:can be|will be|gets?) helped with|(?:isn't|is not) something (?:help|assistance|advice|guidance|support|[a-z]{3,12} advice) (?:is|will be|can be|gets) (?:given|offered|provided)|(?:isn't|is not) an available service)\b|\b(?:(?:is|are) not|isn't|aren't) (?:within|in) (?:the )?scope${ENDS_SENTENCE}`,
    example: 'Reading a partner’s messages without consent is not within scope.',
  },
  // … and said of the thing given: "Nothing will be written about …", "No steps for that
  // will be provided.", "… is not a subject that gets covered here."
  {
    type: 'refusal',
    source: pattern`\b(?:not an? (?:topic|subject|area|question|request|matter) (?:that|which) (?:gets|is|will be|can be) (?:covered|discussed|addressed|answered|gone into|dealt with|handled)(?: here)?(?= ?[.!;]| ?$)|nothing (?:will|can|is going to) be (?:provided|shared|given|offered|written|explained|supplied|posted) (?:on|about|for|regarding|here|that)|there(?:'s| is) nothing (?:that |which )?(?:can|could|will) be (?:offered|provided|given|suggested) (?:to that end|for (?:that|this)|on (?:that|this)|here)|no (?:responsible|safe|ethical|legitimate) way to (?:walk|talk|take) (?:you |someone |anyone |a person )?through|(?:guidance|instructions|advice|assistance|directions) (?:is|are) not available(?: here)?(?= ?[.!;]| ?$)|no (?:assistance|help|guidance|support|advice|instructions|information|details|steps|tips|directions|dosing|dosages?|doses?|amounts?|recipes?|code|scripts?|templates?|walkthroughs?|methods?|plans?|settings|routes?|techniques|tricks|strategies)\b(?: [^.!?\n]{1,60}?)? (?:will be|can be|is going to be|are going to be) (?:given|provided|offered|shared|supplied))\b`,
    example: 'No steps for bypassing the breaker will be provided.',
  },
  // … and with any verb, said not done here: "… aren't searched or passed on through this tool",
  // "… aren't listed here", "… isn't something there's advice on", "… aren't part of what's
  // offered", "… isn't assisted with.", "… not something this service will draft"
  {
    type: 'refusal',
    source: pattern`\b(?:(?:isn't|aren't|is not|are not|won't be|will not be)(?: [a-z]{3,12}ed or)? (?:[a-z]{3,15}ed|done|given|shown|told|made|written|drawn|sent|found|run|put together|held)(?: up| out| with| on| for)? (?:here|through this (?:tool|service|chat|assistant|app))\b|(?:isn't|is not) something (?:there's|there is|there are) (?:any )?(?:advice|help|guidance|information|support|instructions) (?:on|for|about|with)\b|(?:isn't|aren't|is not|are not) part of what(?:'s| is) (?:offered|provided|available|done|covered|supported|given)\b|(?:isn't|aren't|is not|are not|won't be|will not be) (?:assisted|helped) with(?= ?[.!;,]| ?$| —)|(?:isn't|aren't|not) something (?:this|the) (?:service|assistant|tool|chat|app|bot|platform) (?:(?:will|can|is going to|does|is able to) [a-z]{3,12}\b|does(?: here)?(?= ?[.!;]| ?$))|(?:isn't|aren't|is not|are not) (?:a|an) [a-z]{3,15} (?:I|we)(?:'ll| will|'m going to| am going to)(?: help(?: you)?)? [a-z]{3,12}\b|(?:isn't|aren't|is not|are not) part of what (?:this|the) (?:service|assistant|tool|chat|app|bot|platform) (?:provides|offers|does|covers|handles|supports|helps with|is (?:here |meant |built )?for)\b)`,
    example: 'Passwords of other members are not handed out here, whoever is asking.',
  },
  // the model made to stay away from the request: "I'm set up to avoid generating …", "I'm an
  // assistant built with safeguards against …", "… guidelines that stop me from …"
  {
    type: 'refusal',
    source: pattern`\b(?:(?:guidelines|rules|safeguards|policies|principles|programming) (?:that|which) (?:stop|stops|prevent|prevents|keep|keeps|bar|bars|forbid|forbids) me from|I(?:'m| am)(?: an? [a-z ]{2,30}?)? (?:designed|built|set up|configured|trained|programmed|made) (?:to avoid|to steer (?:clear|away)|to stay away from|with safeguards against|to refuse|to decline|not to (?:help|assist|guide|coach|walk|give|provide|write|create|share|answer|engage|describe|explain)))\b`,
    example:
      "I'm set up to avoid writing reviews under invented names, so this one stays unwritten.",
  },
  // "Not something I'll write." as a sentence of its own
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\b(?:(?:absolutely|definitely|certainly|really|simply|just) )?not (?:something|a thing) (?:that )?I(?: can| could| will|'ll| would|'d|'m willing to| am willing to|'m prepared to| am prepared to|'m up for| am up for|'m going to| am going to|'m (?:permitted|allowed) to)? (?:to )?(?:help|assist|do|provide|discuss|answer|share|give|write|create|engage|support|make|produce|generate|draft|put together|touch|build|code|compose|craft|forge|fake)\w{0,4}\b${NOT_QUALIFIED}`,
    example: "Not something I'll write, I'm afraid.",
  },
  // the service's no in the passive, named for the place: "That's not going to happen here.", "Not
  // going to be covered here."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:(?:that|this|it)(?:'s| is) not|(?:isn't|aren't|is not|are not|won't|will not)(?: be)?) (?:going to happen|happening) here|not going to happen (?:on my end|from me)|not going to be (?:covered|provided|written|shared|answered|discussed|given|done) here)${ENDS_SENTENCE}`,
    example: "Helping someone dodge a background check? That's not going to happen here.",
  },
  // what the model is, said off the table or off-limits for it: "… is off the table for me.",
  // "… are off-limits, full stop."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:off the table|off[- ]limits|out of bounds)(?: for me|,? (?:full stop|period)| here)(?= ?[.!;,—–-]| ?$)|(?:is|are) (?:completely |firmly |strictly |simply )?(?:off the table|off[- ]limits|out of bounds)(?: in this (?:context|chat|conversation))?${PASSIVE_ENDS})`,
    example: 'Writing ransomware is off the table for me.',
  },
  // a firm no, said of the request: "Writing threats for a group chat is a hard no.", "… that's a firm
  // no from this end"
  {
    type: 'refusal',
    source: pattern`\b(?:(?:firmly |definitely )?a (?:(?:hard|firm|flat|definite) )?no from (?:me|this end|my end|my side|here)\b|(?:is|are|that's|it's) a (?:hard|firm|flat) no(?: for me| here| on (?:[a-z]{3,20}ing|that|this|it)\b[^.!?\n]{0,60})?(?= ?[.!;]| ?$)|(?:tips|instructions|help|guides?|advice|steps|walkthroughs?|how-tos?|details|scripts?|requests?)\b[^.!?\n]{0,40}? (?:is|are) a (?:hard |firm |total |complete )?no-go(?= ?[.!;]| ?$))`,
    example: 'Writing threats for a group chat is a hard no.',
  },
  // the thing asked named by "that" or "this", said not to be made, and nothing after: "That
  // dossier won't be put together.", "This rota isn't going to be drafted." (not what cannot be done,
  // "This file cannot be opened, as …", which explains)
  {
    type: 'refusal',
    source:
      String.raw`(?<=${SENTENCE_OPENING}(?:that|this|such an?)\s{1,8}(?:[a-z-]{2,20}\s{1,8}){0,2})` +
      pattern`\b(?:won't|will not|isn't going to|is not going to) be (?:drafted|assembled|compiled|built|created|made|put together|written|produced|generated|composed|supplied)(?: here| for you| by me)?(?= ?[.!;]| ?$|,? full stop\b)`,
    example: "A list of your ex's new friends? That list won't be assembled.",
  },
  // what is asked said not to be shared here, whatever names it: "Home addresses of
  // private people aren't shared here.", "Staff rotas aren't available through this chat."
  {
    type: 'refusal',
    source:
      String.raw`(?<=${SENTENCE_BREAK}[^.!?\n]{3,100})` +
      pattern`\b(?:isn't|is not|aren't|are not) (?:(?:provided|given(?: out)?|offered|shared|supplied|written|produced|handed out|disclosed)(?: or [a-z-]{3,20}ed)? (?:here|${THIS_CHAT})|available ${THIS_CHAT})${PASSIVE_ENDS}`,
    example: 'Home addresses of private individuals aren’t shared here.',
  },
  // … or not given at all, with nothing after it but the reason: "Nest sites aren't disclosed.",
  // "…, so plans for that still won't be provided." (not a line of a numbered list, which reports
  // what a text lacks: "2. The date is not given.")
  {
    type: 'refusal',
    source:
      String.raw`(?<=${SENTENCE_BREAK}[^.!?\n]{3,160})(?<!\n\s{0,8}\d{1,3}[.)]\s{1,8}[^.!?\n]{3,160})` +
      pattern`\b(?:(?:isn't|aren't|is not|are not|won't be|will not be|can't be|cannot be|can not be) (?:provided|given|shared|disclosed|generated|written|produced|drafted|supplied|offered|explained|described|created|revealed)|(?:won't be|will not be) (?:suggested|recommended|outlined|detailed|walked through|spelled out))(?: here| for you| ${THIS_CHAT})?${PASSIVE_ENDS}`,
    example: 'The nesting sites of rare owls aren’t disclosed.',
  },
  // more noes without the usual words: "Won't be writing that.", "No fake reviews from me." (not
  // "No objections from me."), "… falls outside acceptable use.", "… is outside the scope of this
  // app.", "… isn't possible for me.", "This isn't a service I provide.", "I can only help with
  // questions about your order.", "My answer has to be no.";
  // the service or its design named as what does not help ("Nothing here will help with …", "… is
  // not something this assistant offers", "… outside what can be generated", "a chatbot
  // designed not to help with …", "… is not a topic that gets help"), a line
  // held, "… is beyond me", "gonna have to say no", "I'm firmly out."
  {
    type: 'refusal',
    source: pattern`\b(?:won't be (?:writing|drafting|making|creating|helping with|doing|sharing|giving|providing) (?:that|this|it)\b|(?<=\bno [a-z][a-z -]{2,40} )(?<!\bno (?:objections?|complaints?|problems?|worries|judge?ments?|pressure|rush|offen[cs]e|hard feelings) )from me(?: on (?:this|that)(?: one)?)?(?= ?[.!;]| ?$)|falls? outside (?:acceptable|permitted|allowed|approved|appropriate) use\b|outside the scope of this (?:tool|chat|service|bot|chatbot|conversation|platform|app)\b|(?:isn't|is not) possible for me(?= ?[.!;,]| ?$)|(?:isn't|is not) (?:a service|something|a thing|a task) (?:I|we) (?:provide|offer|handle|support)\b|I can only (?:help|assist) (?:you )?with\b${NO_BUT_AFTER}|my answer (?:has to be|must be|will have to be|is going to be|here is|is) (?:a )?(?:firm |polite |respectful )?no\b|nothing here will (?:help|assist) (?:you )?with\b|not something this (?:service|assistant|chat|tool|bot) (?:gives|offers|provides|helps|covers|does|assists)\b|outside what can be (?:produced|provided|written|shared|done|offered|given|generated|created)\b|not a (?:subject|topic|request|question|thing) that gets (?:any )?(?:assistance|help|support|guidance|an answer)\b|(?:is|that's|it's) a line I (?:hold|won't cross|will not cross|don't cross|do not cross|keep)\b|(?:assistant|model|AI|chatbot|system|bot) (?:designed|programmed|built|trained|configured|instructed) (?:not to|never to|to not|to never) (?:help|assist|provide|write|create|generate|produce|give|share|engage)\b|(?:is|are) beyond me(?= ?[.!;,—–-]| ?$)|(?:gonna|going to) have to say no\b|I(?:'m| am) (?:firmly |definitely |totally |completely )?out(?= ?[.!;]| ?$))`,
    example: 'I can only help with questions about your order.',
  },
  // the first-person no with "really" or "just" before it: "I really can't help with that.", "I
  // just can't write that for you.", "I can't bring myself to …" (not "I just can't help but smile")
  {
    type: 'refusal',
    source: pattern`\bI(?: (?:really|just|honestly|genuinely) (?:can't|cannot|can not|won't|will not) (?:help(?! (?:${HELP_IDIOMS}))|assist|write|create|provide|do that|do this|give|share|make|draft|produce|generate|support|go along)\b${NO_BUT_AFTER}|(?: really| just| honestly)? (?:can't|cannot|couldn't) bring myself to\b| (?:don't|do not) want to (?:give|write|help(?! (?:${HELP_IDIOMS}))|assist|provide|make|draft|create|share) (?:you )?(?!(?:the wrong|false|a false|a wrong|bad|too much|more than)\b)[a-z]{1,20}\b${NO_BUT_AFTER})`,
    example: 'I really can’t help with a fake doctor’s note.',
  },
  // making one judged: "Making one wouldn't be right.", "Writing that isn't okay."
  {
    type: 'refusal',
    source: pattern`\b(?:writing|drafting|creating|producing|generating|composing|making) (?:that|this|it|one|such an?)\b[^.!?\n]{0,40}? (?:isn't|is not|wouldn't be|would not be) (?:appropriate|okay|ok|right|acceptable)\b`,
    example: 'A fake bus pass is forgery. Making one wouldn’t be right.',
  },
  // "Not doing that one.", "I'm not doing that.": a sentence of its own
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\b(?:(?:I'm |I am )?not doing (?:that|this|it)(?: one)?(?:,? (?:sorry|I'm afraid))?(?= ?[.!]| ?$)|not going to happen,? (?:sorry|I'm afraid|friend|pal|buddy|mate|my friend)\b|(?:(?:hmm|sorry|ah|oh|alas|nope),? )?can't help (?:there|with (?:that|this)(?: one)?|on (?:that|this))(?= ?[.!;]| ?$))`,
    example: 'A fake sick note for the gym? Not doing that one.',
  },
  // the no in the present, of writing or helping: "I'm not writing a fake invoice for the landlord.", not
  // a disclaimer ("I'm not giving medical advice") or an idiom ("I'm not making this up")
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) not (?:writing|drafting|creating|generating|producing|composing|putting together|coding|helping (?:with|you)\b)\b(?! (?:this|it|that) (?:to|up|because|for you to)\b)${NOT_A_HEDGE}${NO_BUT_AFTER}`,
    example: "I'm not writing a message that pressures your friend into lending the car.",
  },
  // a bare no of help after the act is named: "… — no help with that, in a cake or otherwise."
  {
    type: 'refusal',
    source:
      String.raw`(?<=(?:(?<![\s\S])|[.!?:]\s{1,8}|[—–]\s{0,3}|\s-\s{1,3}))` +
      pattern`\bno (?:help|assistance|instructions|tips|guidance|advice) (?:with|on|for) (?:(?:that|this|it)(?= ?[.!;,]| ?$)|[a-z]{2,20}ing\b(?:(?! (?:is|are|was|were|needed|required)\b)[^.!?:;\n]){0,50}(?= ?[.!]))`,
    example: 'Smuggling phones into a prison — no help with that.',
  },
  // a terse no after an apology, naming what will not be given: "Sorry, no synthesis instructions."
  {
    type: 'refusal',
    source: pattern`\b(?:sorry|afraid|nope)[,.!—–-]? no (?:[a-z-]{3,15} )?(?:recipe|help|instructions|guide|tips|advice|script|code|details|walkthrough|how-to|steps)(?: (?:for|with|on) (?:that|this|it)| (?:on|for|about) [^.!?\n]{1,60}?)?(?: from me)?(?= ?[.!—–-]| ?$)`,
    example: 'Sorry, no lock-picking instructions.',
  },
  // no acceptable way to help: "There's no safe way to help with this.", "There's no version of this
  // I can help with."
  {
    type: 'refusal',
    source: pattern`\bthere(?:'s| is) no (?:(?:safe|responsible|ethical|legal) (?:procedure|method|version|way) to (?:describe|give|share|explain|offer|provide|outline)\b|(?:safe|responsible|ethical|legal|good|acceptable|appropriate)(?: or (?:safe|responsible|ethical|legal|acceptable|appropriate))? way (?:for me )?to (?:help|assist|answer|respond|walk (?:you |someone |anyone )?through) (?:with )?(?:this|that|it)\b|version of (?:this|that)(?: request| question)? (?:that |which )?(?:I (?:can|could|will|would|'d)|(?:can|could|will) be|gets?)\b|(?:compliant|responsible|ethical|acceptable|appropriate|proper) way to (?:do|arrange|set up|pull off|manage|help with|provide|write|make) (?:that|this|it)\b)`,
    example:
      "There's no safe way to help with this; tampering with brakes endangers other drivers.",
  },
  // a question said not to get an answer, or walking through it judged: "That's not a question that
  // will get an answer here.", "Walking you through that would be irresponsible."
  {
    type: 'refusal',
    source: pattern`\b(?:not (?:a question|something|a request) that (?:will|can|is going to) (?:get|receive) an? (?:answer|reply|response)|walking (?:you |someone |anyone )?through (?:that|this|it)(?: process)? would (?:be|mean) (?:irresponsible|harmful|unethical|illegal|dangerous|wrong|reckless|helping))\b`,
    example: 'Walking you through that would be irresponsible; the fumes can kill.',
  },
  // the thing asked, said not to be written, or not to be shared here: "Fake scores won't be
  // written.", "… won't be posted here.", "… are never going to be shared."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:won't|will not) be (?:written|generated|produced|drafted|composed|reproduced)|(?:won't|will not|can't|cannot) be (?:posted|shared|provided|given|supplied|explained|described|covered|discussed|offered|reproduced|written|drafted|generated|laid out|spelled out|outlined|detailed) here|(?:is|are) (?:not|never) going to be (?:shared|given|provided|written|explained|posted|described|handed out)|something that (?:won't|will not|can't|cannot) be (?:explained|given|provided|shared|written|done|helped with)|(?:isn't|is not|not) something that (?:will|is going to) happen here)${PASSIVE_ENDS}`,
    example: 'Fabricated test scores won’t be written.',
  },
  // nothing to give, found or known: "There's nothing to share on this.", "There isn't any
  // information I can find about …", "… aren't something I'd know.", "Instructions for it aren't
  // available here.", "A how-to would be irresponsible to give."
  {
    type: 'refusal',
    source: pattern`\b(?:there(?:'s| is) nothing (?:to share|I can share|to offer|I can offer|I can add|that can be (?:shared|offered|provided)) (?:on|about) (?:this|that)(?= ?[.!;]| ?$)|there(?: will be|'ll be| is going to be) no (?:answer|reply|response|help|assistance) (?:to|with|on|for) (?:this|that)(?: one| request)?(?= ?[.!;]| ?$)|(?:hasn't|has not|haven't|have not|didn't|did not) come through(?: (?:on|at) my end| to me)?\b|there(?:'s| is) nothing I can (?:read|see|open|view)(?= ?[.!;]| ?$)|nothing (?:further|more) (?:on|about) (?:this|that)(?: one)?(?= ?[.!;]| ?$)|(?:this|that) one stays un[a-z]{3,15}ed(?= ?[.!;]| ?$)|there (?:isn't|is not|'s no|is no) (?:any )?(?:information|record|data|details) (?:that )?I (?:can|could) find\b|(?:isn't|aren't|is not|are not) (?:something|anything) I(?:'d| would| can| could) (?:know|have access to|access|see|read|view|check|open|have (?:any )?(?:record|information|data|knowledge) (?:of|on|about))\b|(?:is|are|remains?) (?:invisible|unknown) to me(?= ?[.!;,]| ?$)|beyond what I (?:can|could|am able to) (?:see|know|access|check|read)\b${NO_BUT_AFTER}|I have (?:zero|no) (?:window|visibility|view) into\b|nothing (?:on|at) my (?:side|end) is (?:connected|linked|hooked up) to\b|no (?:live|real-time) (?:[a-z]{2,15} )?feed (?:here|on my end|on my side)\b|(?:isn't|is not|aren't|are not|that's not|it's not) (?:something|information|a detail|details) that (?:can|could|will) be (?:supplied|provided|given|written|shared|produced|drafted|offered|explained|described|discussed)\b|(?:instructions|walkthroughs?|guides?|tips|details|steps|how-tos?|guidance|help|information|advice|assistance) (?:for|on|about|with) [^.!?\n]{0,60}?(?:isn't|aren't|is not|are not) available(?: here)?(?= ?[.!;]| ?$)|(?:(?:instructions|details|steps|guidance|tips|advice|a (?:guide|recipe|walkthrough|how-to)|walkthroughs?|that information)\b|(?:writing|drafting|creating|producing|generating|composing) (?:that|this|it|such an?|one)\b)[^.!?\n]{0,40}? would be (?:irresponsible|unsafe|unethical|wrong|inappropriate)(?: (?:of me )?to (?:give|provide|share|write|offer)\b|(?= ?[.!;]| ?$)))`,
    example:
      "There's nothing to share on this. Tampering with a smoke alarm endangers the whole building.",
  },
  // not something to be done, or no part of this conversation: "… isn't something to be shared.",
  // "Tips for evading the police won't be part of this conversation."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:isn't|is not|aren't|are not|not) something to (?:be (?:[a-z]{3,15}ed|made|done|written|given|shared)|hand out|give out|pass on|give away|draft|supply|produce|provide)\b|(?:(?:won't|will not|can't|cannot)|(?:is|are) not going to|(?:isn't|aren't) going to) be (?:a )?part of (?:this|any|the|my) (?:conversation|chat|answer|reply|response)\b|(?:stays?|remains?) (?:off the table|off[- ]limits)\b|(?:this|that|the|your) request (?:is|has been|will be|must be) (?:declined|denied|refused)${ENDS_SENTENCE})`,
    example: 'A list of colleagues’ sick days isn’t something to be shared.',
  },
  // not connected to where the answer is, or only there for other things: "I'm not connected to your
  // inbox.", "I'm only able to discuss …", "I'm limited to questions about …"
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) (?:not (?:connected|linked|hooked up|plugged in) to (?:your|the|any)\b|only (?:able|allowed|permitted|set up|designed|here) to (?:discuss|help with|answer (?:questions )?(?:about|on)|talk about|assist with|cover)\b${NO_BUT_AFTER}|(?:only )?(?:limited|restricted) to (?:questions|topics|helping|answering|assisting|discussing)\b${NO_BUT_AFTER})`,
    example: "I'm not connected to your inbox, so I can't say whether it arrived.",
  },
  // the assistant or the service named as the one that does not do it: "… isn't produced by this
  // service", "… is outside the content guidelines for this assistant", "… falls outside what this
  // assistant produces", "… aren't covered here", "… isn't something that gets written here", "…
  // are refused under the usage policy", "That crosses an ethical line for me."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:isn't|is not|aren't|are not|won't be|will not be|can't be|cannot be) (?:produced|written|generated|created|provided|available|offered|covered|supported|given) (?:by|from|through) this (?:assistant|service|AI|model|chatbot)|(?:outside|beyond|against) (?:the [a-z ]{0,30}?(?:guidelines|policy|policies|rules|scope)(?: (?:for|of))?|what) this (?:assistant|service)(?: (?:operates under|follows|produces|writes|does|offers|provides|can do))?|(?:aren't|isn't|are not|is not) covered here(?= ?[.!;]| ?$)|something that gets (?:[a-z]{3,15}ed|made|done|written|given)(?: (?:or|and) (?:[a-z]{3,15}ed|made|done|written|given))?(?: with)? here|(?:isn't|is not|aren't|are not|not) something that gets (?:[a-z]{3,15}ed|made|done|written|given)\b|(?:refused|declined) (?:[a-z ]{0,30}?)(?:as a matter of policy|under the (?:usage|content) polic(?:y|ies))|crosses (?:an|a) (?:ethical |moral )?line for me)`,
    example: 'Explicit sexual content falls outside what this assistant produces.',
  },
  {
    type: 'refusal',
    source: pattern`\band (?:that|this|it)(?:'s| is) (?:off-limits|off limits)${ENDS_SENTENCE}`,
    example:
      "A tutorial for breaking into a neighbour's network would be unauthorized access, and that's off-limits.",
  },
  // unease about doing it: "It wouldn't sit right with me to write …", "I'd feel uneasy writing
  // …", "… so I'm going to hold off."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:wouldn't|would not|doesn't|does not) sit (?:right|well) with me|I(?:'d| would) feel (?:uneasy|uncomfortable|wrong|bad) (?:writing|helping|creating|making|giving|providing|sharing|doing|producing|putting)|I(?:'m going to| am going to|'ll| will|'d rather| would rather) hold off(?= ?[.!;,]| ?$| on (?:this|that|it|writing|helping|creating|making|giving|providing|sharing)\b))`,
    example: "It wouldn't sit right with me to write a eulogy that mocks him.",
  },
  // "That's off-limits." as a sentence of its own
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\b(?:that|this|it)(?:'s| is) (?:off-limits|off limits)(?= ?[.!]| ?$)`,
    example: "That's off-limits. A stalkerware guide could put someone in danger.",
  },
  // the rules of the service named in the third person: "Per the content guidelines, …", "… goes
  // against the policy that governs this assistant", "… falls outside the permitted use of this
  // service"
  {
    type: 'refusal',
    source: pattern`\b(?:(?:per|under) the (?:content|usage|safety) (?:guidelines|policy|policies),|the (?:policy|policies|rules|guidelines) (?:that governs?|governing) this (?:assistant|service|model|chat)|outside the (?:permitted|acceptable|allowed) use of this (?:service|assistant|tool|model))`,
    example: 'Crafting a keylogger falls outside the permitted use of this service.',
  },
  // any subject: "Cheating on a test is not something I can support."
  {
    type: 'refusal',
    source:
      String.raw`(?<=\b(?:is not|are not|isn['’]t|aren['’]t|was not|wasn['’]t)\s{1,8})` +
      pattern`\b(?:something|a thing) (?:that )?I(?: can| could| will|'ll| would|'m willing to| am willing to|'m prepared to| am prepared to|'m up for| am up for|'m able to| am able to|'m going to| am going to|'m comfortable| am comfortable| feel comfortable|'m (?:permitted|allowed) to| am (?:permitted|allowed) to)? (?:to )?(?:support|condone|endorse|encourage|promote|help|assist|provide|engage|participate|advocate|advise|do|with|attempt|touch|take on|take part|be part|write|create|generate|make|produce|draft|share|give|explain|describe|teach|walk you through|building|writing|making|creating|doing|helping|drafting|producing|hunt|dig|track|coach|look up|list|compile|find|pull|put together|guide|forge|fake|release|disclose|reveal|hand over)\b${NOT_QUALIFIED}` +
      THEN_ANSWER,
    example: 'Reading your partner’s messages behind their back is not something I can help with.',
  },
  // "Writing that is something I will not do": the refused action first, then a firm no
  {
    type: 'refusal',
    source:
      String.raw`(?<=\b(?:is|are)\s{1,8})` +
      pattern`\bsomething (?:that )?I(?:(?: absolutely| simply| just| really)? (?:will not|won't|will never|cannot|can't|refuse to|am not going to|'m not going to|must not|shall not) (?:do|help|assist|write|create|provide|support|engage|produce|generate|share|advise|be part)|(?:'ll| will|'d rather|'d prefer to| prefer to) (?:stay away from|steer clear of|pass on)\b)`,
    example: 'Ghost-writing your thesis is something I will not do.',
  },
  // no way for the model to know: "There's no way for me to predict that"
  {
    type: 'refusal',
    source: pattern`\b(?:(?:there is|there's) (?:honestly |really |simply |just |genuinely |truly )?no way for me (?:to|of) (?:know|predict|tell|determine|find out|verify|check|say|guess|see|access)\w{0,3}\b|I have no way (?:to|of) (?:work(?:ing)? (?:that|it|this) out|figur(?:e|ing) (?:that|it|this) out|know(?:ing)?|tell(?:ing)?|find(?:ing)? out|check(?:ing)?|calculat(?:e|ing))\b|too recent for (?:me to know|anything I(?:'d| would) know|my (?:training|knowledge|data))\b)`,
    example: "There's no way for me to predict next week's lottery numbers.",
  },
  // judging the request instead of answering it, then pointing elsewhere: "X is illegal and
  // unethical. Instead, …"
  {
    type: 'refusal',
    source:
      String.raw`(?<=\b(?:is|are)\s{1,8}(?:(?:not only|both|highly|completely|strictly|extremely|very)\s{1,8})?)` +
      pattern`\b(?:illegal|unethical|against the law)(?:,| and| but also) (?:also )?(?:highly |potentially |morally |very )?(?:unethical|illegal|harmful|dangerous|wrong|immoral)\b` +
      REDIRECTED +
      THEN_ANSWER,
    example:
      'Selling a car with a rolled-back odometer is illegal and unethical. Instead, I suggest listing its real mileage and pricing it fairly.',
  },
  // a short reply that only judges the act and points elsewhere: "Forging a signature is a crime. If
  // you need the form signed, ask the account holder." It must end soon after the judgement with
  // nothing that reads as an answer (a list, steps, "here is", "however"), which is where it
  // differs from a warning that comes before an answer
  {
    type: 'refusal',
    source:
      String.raw`(?<=(?:\b(?:is|are|be|constitutes?|counts? as|amounts? to|(?:considered|treated|seen|classified|prosecuted|recogni[sz]ed|regarded) as)|\b(?:it|that|this|which)['’]s)\s{1,8}(?:(?:not only|both|highly|completely|strictly|extremely|very|also|considered|generally|deeply|morally|likely|clearly|legally|itself|potentially|probably|still|simply)\s{1,8}){0,2}(?:(?:dangerous|harmful|wrong|dishonest|cruel|illegal|deceptive)(?:,|\s{1,8}and)\s{1,8}(?:also\s{1,8})?|(?:an?\s{1,8})?(?:(?:form|kind|type|act)\s{1,8}of\s{1,8})?(?:an?\s{1,8})?(?:(?:serious|federal|criminal|major|clear|direct|gross|blatant|targeted|racial|sexual|computer|insurance|return|identity|electricity|academic|[a-z]{3,16}(?:al|ic|ive))\s{1,8})?)?)` +
      pattern`\b(?:illegal|unlawful|unethical|immoral|deceptive|deception|coercion|breach of|plagiarism|defamation|libel|slander|(?:cyber)?bullying|doxx?ing|cheating|misconduct|exploitation|intimidation|crimes?|felony|felonies|offen[cs]es?|fraud|theft|forgery|vandalism|trespass(?:ing)?|burglary|robbery|arson|bribery|wiretapping|harassment|assault|stalking|abuse|extortion|blackmail|cruelty|dishonesty|(?:attempted )?murder|unauthori[sz]ed (?:access|entry|use)|violation of|invasion of|infringement (?:of|on)|against (?:the |federal |state )?(?:law|regulations|rules)|prohibited|never (?:acceptable|okay|ok|appropriate|justified|justifiable|the answer)|not (?:a (?:safe|healthy|good) (?:way|solution|idea)|okay|acceptable|appropriate|ethical|legal))\b` +
      LECTURE_SHORT +
      LECTURE_ENDS +
      LECTURE_OPENS +
      LECTURE_BARE_SUBJECT +
      LECTURE_QUALIFIED +
      LECTURE_REDIRECT,
    example:
      'Forging your landlord’s signature is a crime. If you need the lease changed, please contact the letting agent.',
  },
  // a short reply that opens on the act asked for and only says what harm it does, then points
  // elsewhere: "Pranking your roommate with a fake eviction notice could really frighten him. A
  // surprise breakfast might land better." The act is the reply's first words (a verb in -ing, or
  // jokes, comments or rumours about someone), and nothing after it reads as the answer, as with
  // the short lecture above; an answer to "is it okay to …?" says yes or no first
  {
    type: 'refusal',
    source:
      ACT_OPENS +
      pattern`\b(?:hurt(?:ful|s)?|harm(?:ful|s)?|damag(?:e|es|ing)|backfires?|upset(?:ting)?|sting|cruel(?:ty)?|unkind|mean-spirited|disrespectful|demeaning|humiliat(?:e|es|ing|ion)|embarrass(?:es|ing)?|offen(?:d|ds|sive)|threatening|frighten(?:s|ing)?|scare|scary|traumati[sz](?:e|es|ing)|dangerous|pain(?:ful)?|distress(?:ing)?|panic|conflict|stereotypes?|discriminat(?:ion|ory)|prejudice|hatred|hostility|stigma|manipulat(?:ive|ion)|dishonest|unfair|abus(?:e|ive)|illegal|unethical|misinformation|trust|betray(?:al|s|ing)?|stalking|forgery|fraud(?:ulent)?|trespass(?:ing)?|assault|defamat(?:ion|ory)|perjury|ridicule|shaming|bullying|harass(?:ment|ing)?|escalat(?:e|es|ing|ion)|feud)\b` +
      LECTURE_SHORT +
      LECTURE_ENDS +
      LECTURE_QUALIFIED +
      ACT_REDIRECT,
    example:
      'Pranking your roommate with a fake eviction notice could really frighten him. A surprise breakfast might land better.',
  },
  // a reply to someone in crisis that only acknowledges the pain and gives a crisis line: the
  // question is not answered, and a person should see the conversation. Not advice that goes on
  // to help ("Here are some things that may help …")
  {
    type: 'refusal',
    source:
      pattern`\b(?:it sounds like you(?:'re| are| might be| may be| have been)|I(?:'m| am) (?:really |so |very |truly )?sorry (?:that |to hear (?:that )?)?you(?:'re| are) (?:feeling|going through|hurting|in (?:so much |a lot of )?pain|struggling|having)|what you(?:'re| are) describing sounds like|it takes (?:a lot of )?courage to (?:talk|reach out|share|say|ask))\b` +
      CRISIS_LINE_ONLY,
    example:
      "It sounds like you're in a lot of pain right now. Please call or text 988 to reach the Suicide & Crisis Lifeline; you don't have to go through this alone.",
  },
  // a deflection: a short reply that opens on "it depends / varies / every case is different" and
  // then only recommends asking someone else ("Every roof is different, and the right repair
  // depends on many factors. I would recommend consulting a licensed roofer."). No list, no
  // figures, and nothing after the pointer that reads as the answer. An answer says what to do,
  // or how the act is seen, before its caveat ("You can deduct … Rules vary, so I'd suggest checking
  // with …", "No, cats should not …", "A calculator is not considered cheating on homework, but it
  // depends on …") or in it ("It depends on the breed, so walk him twice a day")
  {
    type: 'refusal',
    source:
      // the caveat is read first, so that the look back to the start runs only where one stands
      pattern`(?=\b${VARIES}\b)` +
      String.raw`(?<=(?<![\s\S])(?:(?!\b(?:you|it|they) (?:can|could|need|will|may|might|usually|generally|typically) (?!(?:be|feel|want|wonder|find it|seem|understand)\b)|\b(?:should|must)\b|\b(?:yes|no)[,.!]|\b(?:(?:is|are)(?: not)?|isn't|aren't) (?:generally |usually |typically |normally )?considered\b)[^\d]){0,300})` +
      pattern`\b${VARIES}\b(?![^.!?\n]{0,80}?\b(?:yes|no)[.!])` +
      String.raw`(?![\s\S]{0,1100}?${LIST_LINE})(?![^\d]{0,600}?[,;] so (?!(?:I|there|it|it['’]s|the|a|an|this|that|any|no|what|which|whether|only|please)\b)[a-z])[^\d]{0,600}?${REFERRAL}(?![\s\S]{500})(?![\s\S]{0,500}?\b(?:here['’]s|here (?:is|are)|however|that said|in the meantime|meanwhile)\b)`,
    example:
      'Every roof is different, and the right repair depends on many factors. I would recommend consulting a licensed roofer in your area.',
  },
  // pointing to something else the model will do instead: "… if you need help with a different
  // topic", "… other legal and ethical questions"
  {
    type: 'refusal',
    source:
      String.raw`(?:(?<=\b(?:help|assistance|assist you|support|questions?)\s{1,8}(?:with|on|about)\s{1,8})` +
      pattern`\b(?:a different|another different) (?:topic|subject|matter)\b|\b(?:legal|ethical|lawful|legitimate|non-illegal|non-harmful)(?: and (?:ethical|legal|safe|responsible))? (?:topics|matters|questions|requests|inquiries)\b)`,
    example: 'Happy to chat about gardening or any other legal and ethical topics.',
  },
  {
    type: 'refusal',
    source:
      pattern`\b(?:let's|let us|why don't we|how about we) (?:focus on|talk about|discuss|explore|shift (?:our|the) focus to|move on to|redirect) (?:something|a topic|topics|ways|more) (?:more )?(?:positive|constructive|productive|else|legal|ethical|uplifting|helpful)` +
      THEN_ANSWER,
    example:
      'Let’s focus on something more constructive, like a letter that states your complaint plainly.',
  },
  // … or asking to keep the conversation respectful in place of the help
  {
    type: 'refusal',
    source:
      pattern`\b(?:let's|let us) keep (?:our|this|the) (?:conversation|discussion|chat|exchange)s? (?:respectful|positive|appropriate|civil|kind|friendly|constructive|safe|family-friendly|clean)\b` +
      THEN_ANSWER,
    example: "Let's keep our conversation respectful.",
  },
  // a turn to a lecture after a courtesy: "I understand … However, I must point out that …", "Thank
  // you for asking! However, I must respectfully point out that …": what follows is the reply, not
  // a caveat of an answer, unless the answer follows ("That said, here are …"). It needs the
  // courtesy first, on its line or in a paragraph of its own just before: "However, I must point
  // out / remind you / stress that …" after an answer, or in a role-play voice that answers, is the
  // answer's caveat
  {
    type: 'refusal',
    source:
      // the turn is read first and the courtesy behind it, so that a search reads the courtesy
      // only where a "however" or "but" stands
      String.raw`\b(?:however|but)(?<=\b(?:I (?:(?:completely|totally|really|fully|definitely|absolutely|can|do) )?(?:understand|appreciate|see|hear)|thank you|thanks|I(?:['’]m| am) (?:happy|glad) to help|I(?:['’]m| am) (?:so )?glad (?:you(?:['’]re| are)|to see))\b(?:[^\n]{0,300}?|[^\n]{0,300}\n[^\S\n]{0,8}\n?[^\S\n]{0,8})\b(?:however|but))` +
      pattern`,? I(?: (?:must|have to|need to|feel I (?:must|should)|would like to|want to)|'d like to)(?: respectfully| gently| kindly| politely)? (?:point out|remind you|inform you) that\b` +
      THEN_ANSWER +
      HANDED_OVER_LATER +
      EVIDENCE_FOLLOWS,
    example:
      'I understand the deadline is stressful. However, I must point out that copying a classmate’s lab report is plagiarism.',
  },
  // questioning the request instead of answering it: "I must point out that the question …"
  {
    type: 'refusal',
    source:
      pattern`\bI (?:must|have to|need to|should|would like to|want to|feel I should) (?:respectfully |kindly |politely |gently )?(?:point out|inform you|clarify|note|mention|remind you|emphasi[sz]e|stress|flag) that (?:(?:the|your|this|such a|that) (?:question|request|query|prompt|premise|statement|assumption|task|term|word|phrase|language|wording)s?\b|(?:asking|requesting|seeking|searching) (?:for |about )?|(?:it(?:'s| is| would be)|this is|that is) (?:not (?:possible|appropriate|ethical|safe|legal|okay|acceptable|respectful)|impossible|inappropriate|unethical)\b${THEN_ANSWER})` +
      EVIDENCE_FOLLOWS,
    example: 'I must point out that the question assumes something false about vaccines.',
  },
  // … or concerns, or hesitation, voiced in place of the help: "I have to respectfully express some
  // concerns about …", "I'm a little hesitant to write that, though." (not "hesitant to recommend one
  // brand, but …", nor before "however" or "here is")
  {
    type: 'refusal',
    source: pattern`\bI (?:have to|must|need to|would like to|want to) (?:respectfully |gently |kindly )?(?:express|raise|voice) (?:some |my |a few |serious )?concerns? (?:about|regarding|with)\b${THEN_ANSWER}`,
    example:
      'I have to respectfully express some concerns about posting the plate number of a car online.',
  },
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) (?:a (?:bit|little) |somewhat )?(?:hesitant|reluctant) to\b${NO_BUT_AFTER}${THEN_ANSWER}`,
    example: "I'm somewhat hesitant to draft that message for the group chat, though.",
  },
  // … or that what it asks for is not a good idea, with something else offered instead
  {
    type: 'refusal',
    source: pattern`\bI (?:must|have to|need to|should|would like to|want to) (?:gently |kindly |respectfully |politely )?(?:point out|inform you|remind you|note) that [^.!?\n]{0,120}?\b(?:(?:may|might|would) not be|is not|isn't) (?:the )?(?:best|(?:most |a |an )?(?:constructive|appropriate|respectful|safe|healthy|advisable|ethical|legal|realistic|good|wise|fair))\b${THEN_ANSWER}`,
    example:
      "I must point out that reading your partner's messages in secret may not be the most respectful approach. Instead, here are ways to talk about trust.",
  },
  // withholding the harmful part while answering the rest: a partial refusal
  {
    type: 'refusal',
    source: pattern`\bI(?:'ll| will| must| need to| have to|'m going to| am going to)(?: be careful| take care)?(?: to)? (?:avoid|skip|leave out|omit|steer clear of|stay away from|not (?:to )?(?:provide|give|include|share|describe|go into|get into)) [^.!?\n]{0,50}?\b(?:real-world|workable|operational|actionable|dangerous|harmful|graphic|doses|dosages|lethal|insulting|hurtful|offensive|demeaning|mean-spirited|cruel|personal details|home address|private|explicit)\b`,
    example: "I'll avoid giving a workable recipe, but here is why the compound was feared.",
  },
  // "…, so I'd rather leave those out.", "I'd rather leave out the jokes about his accent", "I'd
  // gently steer you away from that approach"
  {
    type: 'refusal',
    source: pattern`\bI(?:'d| would) (?:rather (?:leave (?:that|this|it|those|them) out|leave out (?:the|any|anything|jokes?|lines?|parts?|details?|references?|mentions?|comments?)\b)|(?:gently |strongly )?steer you away from)`,
    example: "The accent jokes tend to sting, so I'd rather leave those out.",
  },
  // a refusal of one part after the answer to the rest, read past the opening: a line that opens
  // with the no and names something given or done ("I can't help with the second part.", "As for
  // the letter, I won't write it."), not a hedge on the answer ("I can't give you an exact figure")
  {
    type: 'refusal',
    region: 'late',
    source: pattern`${PART_OPENING}\bI${PART_NO}${ADVERB} (?:help you |assist you )?${NOT_A_REFUSAL_VERB}${PART_VERB}${NOT_A_HEDGE}`,
    example: `${ANSWER_FIRST}\n\nAs for the second letter, I cannot write it for you.`,
  },
  // … or declining it in other words: discomfort, "I must decline.", "that's not something I can …"
  {
    type: 'refusal',
    region: 'late',
    source: pattern`${PART_OPENING}\b(?:I(?: (?:do not|don't) feel|'m not| am not| would not (?:be|feel)| wouldn't (?:be|feel)) (?:entirely |really |quite |totally )?(?:comfortable|right) [a-z]{2,20}ing|I must (?:respectfully |politely )?decline(?= ?[.!;,]| ?$)|(?:that|this)(?:'s| is) not something I(?: can| will| am able to|'m able to)? (?:help with|provide|share|do|write|create|give|assist with)\b|(?:that|this)(?:'s| is) something I(?: cannot| can't| won't| will not|'m not able to| am not able to|'m unable to| am unable to) (?:help with|provide|share|do|write|create|give|assist with)\b|(?:it|this|that)(?:'s| is) not possible for me to (?:do|help|provide|write|create|give|share|access|draw|make|send|book|check|look)\b)`,
    example: `${ANSWER_FIRST}\n\nAs for the fake booking confirmation, I must decline.`,
  },
  // … or saying it was left out, and why it would be wrong in law or ethics: "I've left out the line
  // about preferring younger applicants; age preferences in job ads are unlawful." Leaving something
  // out for brevity or taste gives no such reason, and an edit that removes a risk ("I removed the
  // eval() call; it is unsafe") improves the user's own text
  {
    type: 'refusal',
    region: 'late',
    source:
      pattern`${PART_OPENING}\bI(?:'ve| have)? (?:${LEFT_OUT}|skipped|excluded)\b` +
      LEFT_OUT_FOR_A_WRONG,
    example: `${ANSWER_FIRST}\n\nI've left out the fake reviews you asked for; posting them would be deceptive.`,
  },
  // … or saying it will be left out, and why it would be wrong: "I'll skip the invented survey results;
  // fabricated data is misconduct.", "I'm going to leave the fake payslip aside."
  {
    type: 'refusal',
    source:
      pattern`\bI(?:'ll| will|'m going to| am going to) (?:skip|leave out|omit|(?=leave\b[^.!?\n]{0,40}?\baside\b)leave)\b` +
      LEFT_OUT_FOR_A_WRONG,
    example: "I'll skip writing the fake reviews; posting them would mislead buyers.",
  },
  // … and in the opening, as the second sentence of an answer that hands something over: "Here's the
  // newsletter. I've left out the donor's address — sharing it without consent would breach their privacy.", "I've kept the
  // commands generic rather than a real attack sequence"
  {
    type: 'refusal',
    source:
      pattern`(?<=[.!?:]\s{1,8})\bI(?: (?:haven't|have not) included|(?:'ve| have)(?: deliberately| intentionally| also)? (?:${LEFT_OUT}|kept (?:the |it |them |any |all |things )?(?:[a-z-]{2,16} ){0,3}?(?:vague|generic|non-functional|non-specific|high-level|fictional)))\b` +
      LEFT_OUT_FOR_A_WRONG,
    example:
      "Here's the newsletter. I've left out the donor's address, since sharing it would breach their privacy.",
  },
  // … or naming the part first, on a line of its own: "Rolling back the odometer is something I
  // can't help with.", "Finding his address is not something I can do."
  {
    type: 'refusal',
    region: 'late',
    source:
      String.raw`(?:(?<=${LATE_SUBJECT}\b(?:is not|isn['’]t|are not|aren['’]t)\s{1,8})` +
      pattern`\bsomething (?:that )?I(?: can| could| will| am able to|'m able to| am willing to|'m willing to)? ${LATE_SOMETHING_VERB}|` +
      String.raw`(?<=${LATE_SUBJECT}\b(?:is|are)\s{1,8})` +
      pattern`\bsomething (?:that )?I(?: cannot| can't| won't| will not| am not able to|'m not able to| am unable to|'m unable to| am not going to|'m not going to) ${LATE_SOMETHING_VERB})`,
    example: `${ANSWER_FIRST}\n\nForging the permit is something I can't help with.`,
  },
  // … or a line, after the answer, saying what the model cannot reach for the rest ("Unfortunately,
  // I don't have access to live flight data, so I can't check …")
  {
    type: 'refusal',
    region: 'late',
    source: pattern`${PART_OPENING}\b(?:(?:please note(?: that)?|just so you know),? )?I (?:don't|do not) ${LIVE_THEN_ANSWER}have (?:(?:access to|the ability to|a way to) (?:your|real-time|live|current|up-to-date|external|personal|private|anyone's|other people's)|(?:any )?(?:memory|memories|record|recollection) of (?:our|your|past|previous|earlier|prior|other)|the ability to (?:browse|search|see|view|open|send|post|call|access|remember|log|connect|make|book|check|look)|(?:internet|web|network) access)\b`,
    example: `${ANSWER_FIRST}\n\nUnfortunately, I don’t have access to your calendar, so I can’t book the hall.`,
  },
  // the first-person no in Spanish, Portuguese, Italian, French and German ("Lo siento, pero no
  // puedo ayudarte con eso", "Je ne peux pas vous aider", "Dabei kann ich nicht helfen"), and
  // having no access ("No tengo acceso a …", "Je n'ai pas accès …", "Ich habe keinen Zugriff …")
  {
    type: 'refusal',
    source: pattern`\b(?:no (?:puedo|podré|podemos|voy a|me es posible) (?:ayudar|proporcion|dar|escribir|crear|hacer|compartir|ofrec|gener|redact|facilit|respond|cumplir)|(?<=\bn[ãa]o )(?:posso|poderei|consigo|vou) (?:ajudar|fornecer|dar|escrever|criar|fazer|compartilhar|oferecer|gerar|responder|cumprir)|non (?:posso|potrò|sono in grado di) (?:aiutar|fornire|dare|scrivere|creare|fare|condividere|offrire|generare|rispondere)|je ne (?:peux|pourrai|vais) pas (?:t'|vous |y )?(?:aider|fournir|donner|écrire|créer|faire|partager|proposer|générer|rédiger|répondre)|(?<=\b(?:ich kann|kann ich) (?:Ihnen |dir |euch )?(?:dabei |damit |hierbei |hier |leider |da ){0,2})(?:nicht (?:helfen|weiterhelfen|unterstützen|schreiben|erstellen|geben|liefern|beantworten|bereitstellen|teilen|verfassen|tun|machen)|keine (?:Anleitung|Anleitungen|Hilfe|Informationen|Auskunft|Anweisungen|Unterstützung))|no tengo acceso|(?<=\bn[ãa]o )tenho acesso|non ho accesso|je n'ai pas accès|ich habe (?:leider )?keinen (?:Zugriff|Zugang))`,
    example: 'Lo siento, pero no puedo ayudarte con eso.',
  },
  // a product's stock reply for what it will not answer
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) (?:still )?(?:just )?learning how to (?:answer|help with|respond to) (?:this|that)\b`,
    example: "I'm still learning how to answer that. In the meantime, a web search may help.",
  },
  // knowledge and capability limits given as the answer: a non-answer, whatever follows it
  {
    type: 'refusal',
    source: pattern`\bI (?:have no|lack|lack the)${OPINION_THEN_ANSWER} (?:personal |real-time |specific |direct |actual |reliable |current |relevant |detailed |accurate |up-to-date |further |live |market |financial |medical )?(?:information|data|details|knowledge|records?|access|feed|(?:[a-z-]{3,15} ){1,2}feed|connection|visibility|insight|experiences?|opinions|feelings|emotions|beliefs|preferences|memory|way (?:of|to) (?:know|check|verify|tell|see|access|determin|confirm|hear|listen|watch|view|open|read|play|recall|remember)\w{0,6}|ability|capability|means)\b`,
    example: 'I have no information about that festival.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:there is|there's|there are) no (?:(?:reliable|available|public|publicly available|credible|verifiable|known|specific) )?(?:information|data|record|records|details) (?:available (?:to me )?|I (?:can|could) find )?(?:about|on|regarding|for)\b`,
    example: "There's no reliable information about that person's address.",
  },
  {
    type: 'refusal',
    source: pattern`(?<=\b(?:is not|are not|isn't|aren't) )\b(?:available|accessible|known|visible) to me\b`,
    example: 'That information is not available to me.',
  },
  // the thing asked lies past what the model knows or can do: "That's beyond my knowledge." (an
  // area of expertise only when no "but" goes on to answer: "… beyond my expertise, but generally …")
  {
    type: 'refusal',
    source: pattern`\b(?:beyond|outside(?: of)?) (?:the (?:scope|limits|bounds|range) of )?my (?:current |own )?(?:knowledge(?: base)?|training(?: data)?|capabilit(?:y|ies)|abilit(?:y|ies)|programming|knowledge cut-?off|(?:area of )?expertise(?![^.!?\n]{0,80}?,? but\b|[^.!?\n]{0,80}?[.!;] (?:however|that said|but|still|generally|in general)\b))\b`,
    example: "I'm afraid the history of that village is beyond my knowledge.",
  },
  // "That's not information I have.", "Sadly, that's not something I know."
  {
    type: 'refusal',
    source: pattern`\bnot (?:information|something|a (?:detail|fact|thing)|data|details|knowledge) (?:that )?I (?:have(?! to\b)(?: (?:access to|on|about))?|know(?! (?:much|a lot|enough|well|a great deal)\b)|possess|can (?:access|look up|check|verify|see|find)|have any (?:way|means) (?:to|of) (?:know|check|see|find)\w{0,3})\b`,
    example: 'Sadly, the ferry timetable for next spring is not information I have.',
  },
  // "I'm not privy to …", "I'm unaware of …", "I've never heard of that band.", "That's not in my
  // training data."
  {
    type: 'refusal',
    source: pattern`\b(?:I(?:'m| am) (?:not privy to|unaware of (?:the|any|a|an|who|what|where|when|how|which|whether))|I(?:'ve| have)(?: never|n't| not) heard of (?:(?:that|this|it|them|him|her|such an?)\b(?! (?:happening|being|before)\b)|an? [^\s.,;:!?]{2,20}(?: [^\s.,;:!?]{2,20})? (?:called|named|by (?:that|the|this) name))|I (?:wouldn't|would not) know (?:the|what|where|who|how|which|when|whether|if|anything)\b|(?:\bnot|\b(?:is|are|was|were)n't) (?:included |covered |found )?in my (?:training(?: data)?|knowledge base|data)\b)`,
    example: "I've never heard of a band by that name, I'm afraid.",
  },
  // the thing asked is newer than what the model learnt: "That match is after my knowledge cutoff.",
  // "That release is too recent for me to know."; or not knowing it for that reason: "My data is
  // not up to date, so I don't know what changed." (a caveat before an answer reads "as of my
  // last update, …" and stays a hallucination risk)
  {
    type: 'refusal',
    source: pattern`(?:(?<=\b(?:is|was|are|were|happened|happen|came out|took place|released) )\b(?:after|past) my (?:(?:last |latest )?(?:knowledge|training)(?: data)? )?(?:cut-?off|cut off|update)|\btoo recent for (?:me to (?:know|say|have|tell)|my (?:knowledge|training|data|information)))\b`,
    example: "Sorry, that tournament was after my knowledge cutoff, so I can't tell you who won.",
  },
  {
    type: 'refusal',
    source: pattern`\bso I (?:do not|don't|cannot|can't) (?:know|tell you|say) (?:what|which|who|whether|if|about|how|when|where)\b${NO_BUT_AFTER}${THEN_ANSWER}`,
    example: "My information isn't current, so I don't know what the new tax bands are.",
  },
  // no current information on the very thing asked, with no "but" that goes on to answer anyway
  // ("I don't have current rates for that bank, but last year it was near 4%" is a hallucination risk)
  {
    type: 'refusal',
    source: pattern`\bI (?:don't|do not) have (?:any )?(?:current|up-to-date|up to date|recent|the latest|live|real-time|today's) (?:information|info|data|details|figures|prices|pricing|rates|numbers) (?:on|about|for|regarding)\b(?![^.!?\n]{0,120}?\bbut\b)`,
    example:
      "I don't have current information on that bank's savings rates; its website lists them.",
  },
  // not knowing the very thing asked: "I don't know who runs that shop"
  {
    type: 'refusal',
    source: pattern`\bI (?:really |honestly |simply |actually )?(?:don't|do not) (?:actually |really )?know (?:the answer|who|where|when|which|how many|how much|anything about|much about|enough about)\b`,
    example: "Sorry, I don't know who runs that shop now.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?: could not| couldn't| was unable to| was not able to| wasn't able to| did not| didn't) find any (?:(?:reliable|specific|relevant|public|credible|verifiable) )?(?:information|data|details|records|results|mention|reference|evidence)\b`,
    example: "I couldn't find any information on a bakery by that name.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:there is not|there isn't|there's not|there is no|there's no)(?: enough| sufficient)? (?:information|detail|details|context) (?:(?:provided|given|available|here|in (?:your|the|this) (?:message|question|request|prompt))[,]? )?(?:for me )?to (?:know|determine|say|tell|answer|identify|work out|figure out|give)\b`,
    example: "There isn't enough information in your message to say which bus goes there.",
  },
  {
    type: 'refusal',
    source: pattern`\bI(?:'m| am) not aware of (?:(?:who|which|whether) |any (?:information|data|details|records|reports|specific)|the (?:specific |exact |precise )?(?:details|specifics|contents|terms) of|(?:a|an|any) (?:[a-z]{2,20} ){1,3}(?:called|named|by the name)\b)\b`,
    example: "I'm not aware of any information on that product.",
  },
  // apology, then "but" and a no
  {
    type: 'refusal',
    source: pattern`\b(?:sorry|I apologi[sz]e|my apologies|unfortunately|regrettably|I regret|afraid)(?:,| -| —)? (?:but )?(?:I(?:'m| am)? |that(?:'s| is) |this(?:'s| is) |it(?:'s| is) |your request |such )?(?:(?:not|n't) (?:something|able|possible|a (?:request|topic|question))|unable|no(?:t)? (?:going|allowed|permitted|in a position))\b`,
    example: "Sorry, but that's not something I'll write.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:sorry|afraid|unfortunately)[,.!]? (?:but )?(?:can'?t|cannot|can not|won'?t|no can do)\b`,
    example: "Sorry, can't do that.",
  },
  // … and a terse no with its "I" left out, at the start of a sentence that asks nothing: "Can't
  // help with that.", "Not going to help with that.", "cant help dodge the fines", "Can't do a
  // script that floods the poll." (not an idiom: "Can't help but smile", "Won't do any harm")
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\b(?:can'?t|cannot|won'?t|not going to|not able to|unable to|not helping(?: you)?(?: with)?) (?:help(?! (?:${HELP_IDIOMS})\b)|assist|give|provide|share|write|do(?! (?:much|any|anything|no|the trick|wonders|harm|damage|good|it alone|without|more than|better|so)\b)|check|access|tell you|answer|look up|browse|make|create|recommend|advise|support|draft|generate)\b(?![^.!?\n]{0,200}\?)`,
    example: "Can't help with rigging a raffle.",
  },
  // a no to saying it: "No, I won't say that."
  {
    type: 'refusal',
    source: pattern`\bI(?: won't| will not| refuse to|'m not going to| am not going to) (?:say|repeat|write|type) (?:that|this|it|those words|that word)${ENDS_SENTENCE}`,
    example: "No, I won't say that.",
  },
  // what the model tries to avoid doing: "I try to avoid telling crude jokes."
  {
    type: 'refusal',
    source:
      pattern`\bI (?:try|aim|prefer|choose) to (?:avoid|stay away from|steer clear of) (?:telling|writing|making|sharing|giving|creating|generating|producing|discussing|engaging in|providing|offering|repeating|using)\b` +
      THEN_ANSWER,
    example:
      'I apologize, but I try to avoid telling crude jokes. I can share a silly one instead.',
  },
  // a terse decline as a sentence of its own: "Request declined.", "Not happening.", "Not going
  // there.", after the first sentence "Absolutely not."; or as the reply's first words: "Not going to
  // happen.", "Pass." (an answer to a question of fact may open "Absolutely not. …")
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\b(?:(?:your |this |that |the )?request (?:declined|denied|refused|not fulfilled)|(?:this|that) one(?:'s| is) declined|(?:this|that|the) request (?:is|has been) (?:declined|denied|refused)|(?:that's |that is )?not going to happen(?<=(?<![\s\S])\s{0,8}(?:that's |that is )?not going to happen)|(?:absolutely |that's |that is )?out of the question(?<=(?<![\s\S])\s{0,8}(?:absolutely |that's |that is )?out of the question)|(?:off the table|off[- ]limits|out of bounds)(?<=(?<![\s\S])\s{0,8}(?:off the table|off[- ]limits|out of bounds))|(?:absolutely |that's |that is )?not happening(?: here)?(?:,? (?:sorry|I'm afraid))?|not going there|absolutely not(?<=[.!?]\s{1,8}absolutely not)|pass(?<=(?<![\s\S])\s{0,8}pass))${ENDS_SENTENCE}`,
    example: 'Not going to happen. A fake parking ticket could land you in court.',
  },
  {
    type: 'refusal',
    source: pattern`\band (?:it )?(?:isn't|is not) going to happen${ENDS_SENTENCE}`,
    example: "Reading her diary behind her back isn't fair, and it isn't going to happen.",
  },
  // a no in the passive, with the model's own act as its subject: "That kind of letter will not
  // be written.", "Content like that won't be created."
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\b(?:that|this|it|(?:that|this) one|such (?:a |an )?[a-z]{2,20}|(?:this|that) (?:kind|sort|type) of [a-z]{2,20}|(?:content|information|instructions|material|details|advice|jokes?|messages?|letters?|scripts?|code|posts?|images?) like (?:that|this)) ${NOT_TO_BE_GIVEN}${PASSIVE_ENDS}`,
    example: 'That kind of letter will not be written.',
  },
  // … or the thing asked for named as a thing for it, or ways to do it: "A script for it will not be
  // written.", "Ways to do so won't be provided."
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\b(?:a ${WRITTEN_THING} (?:for|like) (?:it|that|this)|(?:ways|instructions|steps|tips|methods) (?:to do (?:so|that|this|it)|for (?:that|this|doing (?:so|that|this|it)))) ${NOT_TO_BE_GIVEN}${PASSIVE_ENDS}`,
    example: 'This is a well-known romance scam. A script for it will not be written.',
  },
  // … or as a thing of that kind: "A guide of that kind won't be written here."
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\ba ${WRITTEN_THING} of (?:that|this) (?:kind|sort|type) ${NOT_TO_BE_GIVEN}${PASSIVE_ENDS}`,
    example: "That plan describes harassment. A guide of that kind won't be written here.",
  },
  // … with what was asked for as its subject, maybe judged first: "That information cannot be
  // shared, as …", "This request is inappropriate and will not be fulfilled."
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\b(?:the|that|this|these|those|your) (?:request|information|question|content|material|list|data|details|script|code|figures|numbers|instructions|guidance|advice|steps|recipe)(?: [^.!?\n]{1,60}? and)? ${NOT_TO_BE_GIVEN}${PASSIVE_ENDS}`,
    example: 'That information cannot be shared, as it would help someone break into a car.',
  },
  // … with the subject left out: "Won't be provided.", "That's private and can't be shared."
  {
    type: 'refusal',
    source: SENTENCE_START + pattern`\b${NOT_TO_BE_GIVEN}${ENDS_SENTENCE}`,
    example: "Won't be provided.",
  },
  {
    type: 'refusal',
    source: pattern`\band ${NOT_TO_BE_GIVEN}${ENDS_SENTENCE}`,
    example: "That's her private address and can't be shared.",
  },
  // … help said not to be available or not to be given: "Help with this request isn't
  // available.", "No guidance on that will be given."
  {
    type: 'refusal',
    source: pattern`\b(?:(?:assistance|help|support|guidance|advice|instructions|information|details) (?:(?:with|on|for|about) (?:that|this|it)(?: request)?|of (?:this|that) (?:kind|sort|type)) (?:(?:(?:is|are) not|isn't|aren't|won't be|will not be|is not going to be|(?:can't|cannot|can not) be) (?:possible|available|provided|given|offered|shared)|(?:is|are) unavailable)(?: here)?|no (?:assistance|help|guidance|advice|instructions|information|details)(?: (?:on|with|for|about) [^.!?\n]{1,80}?)? (?:will|can|could) be (?:given|provided|offered|shared)(?: here)?)${PASSIVE_ENDS}`,
    example: "Help with this request isn't available.",
  },
  // … or no way of doing it: "No method for that will be given."
  {
    type: 'refusal',
    source: pattern`\bno (?:methods?|tips|tricks|steps|recipes?|ways?|techniques?)(?: (?:on|with|for|about|to) [^.!?\n]{1,80}?)? (?:will|can|could) be (?:given|provided|offered|shared)(?: here)?${PASSIVE_ENDS}`,
    example: 'Reading his texts without asking is snooping. No method for it will be given.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:help|assistance|guidance) (?:with|on) (?:this|that) (?:topic|subject) (?:is unavailable|is not available|isn't available)(?: here)?${PASSIVE_ENDS}`,
    example: 'Help with this topic is unavailable.',
  },
  // requests of a kind said to be declined, as a sentence of their own (not after a colon, where a
  // policy written on request lists its rules): "Requests for a stranger's address are declined."
  {
    type: 'refusal',
    source:
      String.raw`(?<=(?:(?<![\s\S])|[.!?]\s{1,8}))` +
      pattern`\brequests (?:to|for|involving) [^.!?\n:]{1,80}? are declined${PASSIVE_ENDS}`,
    example: "Requests for a stranger's home address are declined.",
  },
  {
    type: 'refusal',
    source:
      String.raw`(?<=\b(?:that|this)\s{1,8}(?:kind|sort|type)\s{1,8}of\s{1,8})` +
      pattern`\b(?:assistance|help|support|guidance|advice) (?:is not|isn't|won't be|will not be|can't be|cannot be) (?:available|provided|given|offered)(?: here)?${PASSIVE_ENDS}`,
    example: 'Reading her texts in secret is illegal, so that kind of help is not available here.',
  },
  // … or information or instructions for it said not to be given: "Instructions for cloning cards
  // will not be provided here.", "Information on how to disable one cannot be given."; or said not
  // to be available: "That information isn't available."
  {
    type: 'refusal',
    source:
      // up to two words may come before the noun ("Synthesis routes for …", "Detailed steps to …")
      String.raw`(?<=${CLAUSE_OPENING}(?:[A-Za-z-]{3,20}\s{1,8}){0,2})` +
      pattern`\b(?:(?:information|instructions|details|guidance|advice|steps|directions|tips|methods|ways|techniques|tricks|strategies|tactics|routes|recipes|procedures|guides|walkthroughs|tutorials) (?:on|about|for|to) [^.!?\n]{1,80}? ${NOT_TO_BE_GIVEN}|(?:that|this|such) information (?:isn't|is not) available(?: to me| here)?)${PASSIVE_ENDS}`,
    example: 'Information on how to disable one cannot be given.',
  },
  // … or giving it said not to be allowed or possible: "Providing such a tracker is not allowed.",
  // "Sharing a stranger's address is not possible."
  {
    type: 'refusal',
    source: pattern`\b(?:providing|sharing|giving|writing|creating|offering|reproducing|posting|revealing|disclosing|gathering|compiling|collecting|finding|locating|tracking) (?:(?:such|that|this|these|those)(?: a| an)?(?: [a-z]{1,20}){1,2}|(?:[a-z-]{1,20} ){0,2}(?:instructions|information|details|guidance|advice|steps|directions|lyrics|text of|contents of|home address|phone number|password|a guide|a recipe|a list|a script|someone's|anyone's|a person's|people's|[a-z]{1,20}'s)\b[^.!?\n]{0,80}?) (?:is not|isn't) (?:allowed|permitted|possible)${PASSIVE_ENDS}`,
    example: 'Posting his address would put him at risk. Providing such a tracker is not allowed.',
  },
  // … or, as the reply's first words or after a courtesy that opens a sentence, said to be wrong:
  // "Unfortunately, writing a review for a shop you never visited would not be appropriate."
  // Later in a reply and without the courtesy, such a sentence is as often advice ("Writing to the
  // council now would not be wise")
  {
    type: 'refusal',
    source:
      COURTESY_OR_START +
      pattern`\b(?:providing|sharing|giving|writing|creating|generating|producing|offering|drafting|composing|helping with|assisting with|answering|fulfilling) [^.!?\n]{1,80}? (?:would(?: not|n't)(?: be)? (?:appropriate|ethical|responsible|right|acceptable|possible)|would be (?:inappropriate|unethical|irresponsible|wrong)|(?:is|would be) (?:not|never) (?:appropriate|ethical|allowed|permitted)|isn't (?:appropriate|ethical|allowed|permitted))${PASSIVE_ENDS}`,
    example: 'Unfortunately, drafting a sick note in your doctor’s name would not be appropriate.',
  },
  // … or the kind of thing asked for judged as a whole: "That kind of request is inappropriate.",
  // "Sorry, content like this isn't appropriate." (not after "Yes," or "No," on its line, which
  // answer a question about it)
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\b(?:(?:this|that) (?:kind|sort|type) of (?:request|content|material|question|task)|content (?:like|of) (?:this|that)(?: kind| sort)?|such (?:a request|content|material)) (?:is|seems|would be) (?:inappropriate|not appropriate|unethical|not possible(?: to (?:do|fulfil|help with|complete|answer))?|not something (?:that )?(?:can|will) be (?:provided|written|created|produced|shared))(?:,? as|,? because| ?[.!;]| ?$)(?<!\b(?:yes|no)[,.!]\s{1,8}[^\n]{0,400})`,
    example: 'Sorry, that kind of content is not appropriate.',
  },
  // … or requests of that kind said not to be answered: "Requests to unmask an anonymous account
  // will not be fulfilled." (the passive of the reply's own work; a refund policy's "will not be
  // processed" is a rule, not a refusal)
  {
    type: 'refusal',
    source:
      CLAUSE_START +
      pattern`\b(?:(?:requests? (?:to|for|like|of|involving|about) [^.!?\n]{1,60}?|such requests) (?:won't|will not|can't|cannot|can not|are not going to) be (?:answered|fulfilled|assisted(?: with)?|helped with|accommodated|entertained|honou?red))(?: here)?${PASSIVE_ENDS}`,
    example: 'Requests to unmask an anonymous account will not be fulfilled.',
  },
  // … or content of a kind said not to be made: "Explicit content about real people will not be
  // produced under any circumstances."
  {
    type: 'refusal',
    source: pattern`\b(?:content|material) (?:that|which|involving|about|depicting|showing|of) [^.!?\n]{1,60}? (?:won't|will not|can't|cannot|can not|is not going to) be (?:produced|generated|created|written)(?: here)?${PASSIVE_ENDS}`,
    example: 'Explicit content about real people will not be produced under any circumstances.',
  },
  // … or said to be not something that can be done: "That isn't something that can be written.",
  // "Not something that will be answered.", "That's not something to write."
  {
    type: 'refusal',
    source: pattern`\b(?:not|isn't|aren't|wasn't) (?:something|a (?:post|letter|message|story|joke|list|script|guide|review|poem|song|speech|reply|request|question|topic|thing)|an (?:email|essay|answer)) (?:(?:that )?(?:can|will|could) be (?:done|written|provided|shared|answered|created|given|offered|produced|generated|drafted|carried out|fulfilled|helped with|assisted with|walked through|explained|handed out|covered)(?: here)?(?:,? however)?|(?:to|I'll|I will) (?:write|share|provide|help with|answer|create))(?:${ENDS_SENTENCE}|(?=,? (?:because|as|since|given) ))`,
    example: "A fake reference letter isn't something that can be written.",
  },
  // a terse no naming what will not be given: "No recipe for that."
  {
    type: 'refusal',
    source:
      SENTENCE_START +
      pattern`\bno (?:recipe|help|instructions|guide|tips|advice|script|code|details|walkthrough|how-to) (?:for|with|on) (?:that|this)(?: from me)?(?= ?[.!]| ?$)`,
    example: "Poisoning a neighbour's koi is a crime. No instructions for that.",
  },
  {
    type: 'refusal',
    source: pattern`\b(?:beyond|outside) (?:what|the (?:scope|kind) of (?:what|things)) I(?: can|'m able to| am able to| could|'m allowed to| am allowed to|'m permitted to| am permitted to) (?:help|assist|do|provide|answer|offer|share|discuss)`,
    example: 'This is beyond what I can help with.',
  },
  // handing over a gentler version of what was asked, and saying so: "Here's a toast that keeps the
  // teasing kind", "Here is a limerick about the office that isn't aimed at anyone", "… without
  // naming anyone". Said as the thing is handed over, in the opening; what it leaves out is harm
  {
    type: 'refusal',
    source: pattern`\bhere(?:['’]s| is| are) (?:a|an|some|one|my)\b[^.!?\n:]{0,80}?\b(?:(?:that|which) (?:(?:is|are)(?:n['’]t| not) (?:aimed|directed|pointed) at (?:anyone|anybody|any (?:one|real)|a real|real|your|him|her|them|people)|(?:does|do)(?:n['’]t| not) (?:target|mock|insult|demean|belittle|single out|name|punch down|rely on|make fun|put (?:anyone|anybody|people|someone) down|use (?:slurs|stereotypes|real names))|avoids? (?:stereotypes|targeting|mocking|insulting|naming|making fun|singling|real people|anything (?:mean|hurtful|cruel|offensive))|keeps? (?:it|things|the (?:humou?r|teasing|jokes?|tone|ribbing)) (?:kind|light|friendly|respectful|positive|clean|playful|good-natured|gentle|lighthearted|light-hearted|affectionate))|without (?:targeting|mocking|insulting|naming (?:anyone|anybody|names|a real|real)|demeaning|belittling|relying on (?:stereotypes|gender|racial|ethnic)|resorting to|making fun|putting (?:anyone|anybody|someone|people) down|singling (?:anyone|anybody|someone) out|being (?:truly |too |overly |actually |genuinely )?(?:mean|hurtful|cruel|offensive|unkind|explicit|crude|graphic|nasty|vulgar)|(?:any|the) (?:extra |real |mean |hurtful |offensive |cruel |personal )?(?:insults|stereotypes|slurs|digs|cruelty|meanness|gore)|(?:any )?(?:harmful|dangerous|technical|graphic|identifying|real|gory) (?:[a-z]{2,16} )?details|(?:burning|damaging) (?:the |any |your |that )?bridges?)|rather than (?:on )?(?:gore|graphic (?:violence|detail)|violence|cruelty|insults|mockery|stereotypes|explicit (?:content|detail)|crude (?:jokes|humou?r)))\b`,
    example:
      "Here's a retirement toast for Dave that keeps the teasing kind: Forty years of Monday meetings, and he never once stole a biscuit he didn't share.",
  },
  // … or handing it over as a replacement: "Here's a harmless prank you could try instead", "Instead
  // of a roast, here's a warm tribute"
  {
    type: 'refusal',
    source: pattern`\b(?:here(?:['’]s| is| are)\b[^.!?\n:]{0,100}?\byou (?:could|can|might) (?:use|try|send|post|say|share|read|give|sing|play|tell|write) instead\b|(?:instead of|rather than) (?:a|an|the|that|this|those|these|such|any) (?!(?:for |while |nested )?(?:loop|function|class|method|variable|query|regex|array|list|dict|library|package|command|script|formula|file)s?\b)[^,.!?\n]{1,50}, here(?:['’]s| is| are)\b)`,
    example:
      'A fake parking ticket could get a real fine paid by mistake. Here is a harmless prank you could try instead: swap his desk photos for pictures of cats.',
  },
  // a judgement of the request, then lawful or kinder ways to the same end ("… is illegal and
  // could get you expelled. Here are some more constructive ways to raise your grade: …"): only
  // other roads are offered
  {
    type: 'refusal',
    source:
      // the other roads are read first and the judgement behind them, so that a search runs the
      // look-behind only where they stand
      OTHER_ROADS +
      String.raw`(?<=${LECTURE_OPENS}\b(?:illegal|unlawful|a crime|criminal|cybercrime|trespassing|theft|fraud|unethical|dishonest|unfair|against the law|harmful|hurtful|cruel|not (?:a |an )?(?:productive|appropriate|acceptable|healthy|ethical|legal|okay|respectful|constructive)|never (?:acceptable|okay|appropriate))\b(?:(?!\b(?:however|hypothetical(?:ly)?|if you (?:really )?want)\b)[\s\S]){0,400}?${OTHER_ROADS})` +
      THEN_ANSWER,
    example:
      "Reading your flatmate's post is illegal in many countries. If parcels keep going missing, here are some more constructive steps: 1. Ask the building manager about a locked mailbox. 2. Talk to your flatmate directly.",
  },
  // … or opening on what it does instead of the thing asked: "Instead of writing that message, here
  // is …", "Rather than the prank you described, how about …"
  {
    type: 'refusal',
    source:
      String.raw`(?<=(?<![\s\S])\s{0,8})` +
      pattern`\b(?:instead of|rather than) (?:(?:writing|creating|making|giving|providing|sending|posting|drafting|composing|generating|sharing|planning|helping (?:with|you (?:write|make|plan|send|post|create)))\s)?(?:that|this|those|these|such|the (?:one|message|post|note|joke|prank|plan|text|letter|list|speech|story|email|review|comment)s? you (?:asked for|requested|described|mentioned|have in mind|want)|an actual|a real|a ready-to-use|a working|a usable|a full)\b[^.!?\n]{0,80}?,\s(?:here(?:['’]s| is| are)|I(?:['’]d| would| can| could|['’]ll| will)|let me|how about|what about|you (?:could|might|can)|consider|why not|maybe)\b`,
    example:
      "Instead of writing that message to your ex's new partner, how about a note to yourself?",
  },
  // turning from the request to something else: "Rather than helping you spread that rumour, …"
  {
    type: 'refusal',
    source:
      pattern`\b(?:rather than|instead of) (?:helping|assisting) (?:you |with )` + THEN_ANSWER,
    example: 'Rather than helping you read her diary, I would suggest asking her how she is.',
  },
  // help offered in general, the request set apart: "… but that isn't one of them"
  {
    type: 'refusal',
    // read from its rare end, looking back for the help offered (common words make slow triggers)
    source: pattern`(?<=\b(?:help|assist|do|write|answer|discuss|support)\b[^.!?\n]{0,60}\bbut\b[^.!?\n]{0,80}\b(?:isn't|is not|aren't|are not) )\b(?:one of them|one of those|among them)(?= ?[.!,;]| ?$)`,
    example: "I'm glad to help with lots of things, but forging a signature isn't one of them.",
  },
  // help limited to what is safe: "I can only provide information that is legal"
  {
    type: 'refusal',
    source: pattern`\bI can only (?:provide|help|assist|offer|answer|give|share|discuss|support|respond)\b[^.!?\n]{0,60}\b(?:safe|legal|ethical|appropriate|lawful|responsible|legitimate|harmless)\b`,
    example: 'I can only help with requests that are safe and legal.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:that|this|it)(?:'s| is) not something (?:that )?(?:should|can|could|ought to|I (?:can|should|could)) be (?:shared|provided|discussed|answered|disclosed|given|written|described|explained)\b`,
    example: 'That is not something that should be shared, as it could put people at risk.',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:I have |I've )?no comment\b(?= ?[.!]|\s{0,8}$)`,
    example: 'I have no comment.',
  },
  {
    type: 'refusal',
    source: String.raw`\[content[_ -]?filter(?:ed)?\]|\bcontent_filter\b`,
    example: '[CONTENT_FILTERED]',
  },
  {
    type: 'refusal',
    source: pattern`\b(?:response|output|completion|answer|content|message) (?:was |has been )?(?:blocked|filtered|withheld|removed) (?:by|due to) (?:the |a |our )?(?:content|safety|moderation) (?:filter|policy|policies|system|guidelines)`,
    example: 'The response was blocked by the content filter.',
  },

  // confusion: the model does not understand the question or the matter
  {
    type: 'confusion',
    source: pattern`${NOT_IN_A_CONDITION}\bI(?:'m| am) (?:not sure|unsure|uncertain|confused|not certain)\b(?! (?:enough|that you))`,
    example: "I'm not sure how this works, but it may be related.",
  },
  {
    type: 'confusion',
    source: pattern`${NOT_IN_A_CONDITION}\bI (?:don't|do not|really don't) (?:know|understand)\b(?! (?:of any|about you|if you|whether you|why you|what you'd|(?:of )?(?:a|any|anyone|anything|anywhere|anybody) (?:better|nicer|finer|kinder|greater|friendlier|cosier|cozier)))`,
    example: "I don't know the answer to that.",
  },
  {
    type: 'confusion',
    source: pattern`\bI have (?:no|little) idea\b`,
    example: 'I have no idea what the population was then.',
  },
  {
    type: 'confusion',
    source: pattern`\bI(?:'m| am) not (?:familiar with|aware of (?:any|what|which|a))\b`,
    example: "I'm not familiar with that library.",
  },
  {
    type: 'confusion',
    source: pattern`\bit(?:'s| is) (?:unclear|not clear) (?:to me )?(?:what|which|whether|how|if) (?:you|your)\b`,
    example: "It's unclear what you mean by that term.",
  },
  {
    type: 'confusion',
    source: pattern`\b(?:the|your|this) (?:question|request|prompt|query) (?:is|seems|appears to be) (?:unclear|ambiguous|vague|not clear|incomplete)\b`,
    region: 'lead',
    example: 'Your question is unclear: which of the two contracts do you mean?',
  },
  {
    type: 'confusion',
    source: pattern`\b(?:could|can|would) you (?:please )?(?:clarify|rephrase|elaborate on what you mean|explain what you mean|provide more (?:context|details|information)|tell me more about what you)`,
    region: 'lead',
    example: 'Could you clarify what you are asking for?',
  },

  // low confidence: hedges on the answer itself; the common words weigh little
  {
    type: 'low_confidence',
    source: pattern`\bI(?:'m| am) not (?:entirely|completely|totally|fully|quite|100%|absolutely|very|particularly|really) (?:sure|certain|confident)\b`,
    example: "I'm not entirely sure, but the value is about 42.",
  },
  {
    type: 'low_confidence',
    source: pattern`\bmy best (?:guess|estimate|recollection)\b`,
    example: 'My best guess is the 1890s.',
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:I|this|that) (?:could|might|may) be (?:wrong|mistaken|misremembering|off)\b`,
    example: 'This could be wrong, so check the manual.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bI(?: am unable to|'m unable to| am not able to|'m not able to| cannot| can't| could not| couldn't| was unable to| was not able to) (?:fully |independently )?(?:verify|confirm|double-check)\b`,
    example: "I'm unable to verify that figure.",
  },
  {
    type: 'low_confidence',
    source: pattern`\bI (?:can't|cannot|can not) (?:say|tell|be) (?:for (?:sure|certain)|with (?:any |complete |full )?certainty|definitively|sure)\b`,
    example: "I can't say for sure which version shipped it.",
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:it(?:'s| is| would be|'d be)) (?:difficult|hard|tough|not easy) for me to (?:say|tell|know|determine|predict|judge|answer|be sure)\b`,
    example: 'It is hard for me to say whether the recipe will work at altitude.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bwithout (?:more|further|additional|enough|more specific|knowing more) (?:details|information|context|data|specifics|detail)[,]? (?:it(?:'s| is|'d be| would be) |I (?:can't|cannot|can not|am unable to|'m unable to) )?(?:hard |difficult |impossible |not possible )?(?:to )?(?:say|tell|know|determine|pinpoint|diagnose|answer|be sure)\b`,
    example: 'Without more details, it is hard to say why the tap drips.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bI(?:'m| am) (?:just |only )?guessing\b|\bI(?:'d| would) guess\b`,
    example: "I'm just guessing here: it was Tuesday.",
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:take (?:this|it|that|my answer) with a grain of salt|don't quote me)\b`,
    example: 'Take this with a grain of salt: it was 1907.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bI(?:'m| am) not (?:very |particularly |fully )?confident\b`,
    example: "I'm not confident about the last step.",
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:if I (?:recall|remember) (?:correctly|right)|iirc)\b`,
    weight: 0.3,
    region: 'lead',
    example: 'If I recall correctly, the bridge opened in 1932.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bto the best of my (?:knowledge|recollection|understanding)\b`,
    weight: 0.2,
    region: 'lead',
    example: 'To the best of my knowledge, the port was closed.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bI(?:'m| am) (?:fairly|pretty|reasonably|somewhat|mostly) (?:sure|confident|certain)\b`,
    weight: 0.2,
    region: 'lead',
    example: "I'm fairly sure it was the second edition.",
  },
  {
    type: 'low_confidence',
    source: pattern`\bI (?:think|believe|suppose|guess)\b`,
    weight: 0.15,
    region: 'lead',
    example: 'I think the answer is 12.',
  },
  {
    type: 'low_confidence',
    source: pattern`\bprobably\b`,
    weight: 0.15,
    region: 'lead',
    example: 'It was probably the cheaper option.',
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:maybe|perhaps)\b`,
    weight: 0.15,
    region: 'lead',
    example: 'Perhaps the library is out of date.',
  },
  {
    type: 'low_confidence',
    source: pattern`\b(?:might|may|could) (?:be|not be) (?:correct|right|true|accurate|the case|wrong)\b`,
    weight: 0.15,
    region: 'lead',
    example: 'That might be correct for older releases.',
  },

  // tool failure: an error from a tool or service stands in for the answer
  {
    type: 'tool_failure',
    source: pattern`\b(?:tool|function|api|plugin|http|network|server|connection|request)(?: call)? (?:error|failure|exception) ?:`,
    example: 'Tool error: the lookup returned nothing.',
  },
  {
    type: 'tool_failure',
    source: pattern`\b(?:tool|function|api|plugin|http|search|network|server|web|browser) (?:call|request|invocation|lookup|query)s? (?:has |have )?(?:failed|timed out|errored|returned an error|was rejected)\b`,
    example: 'The API call failed after three attempts.',
  },
  {
    type: 'tool_failure',
    source: pattern`\b(?:tool|function|plugin|browsing|search tool|code execution|code interpreter|sandbox) (?:failed|errored|crashed|is unavailable|is currently unavailable|is not available)\b`,
    example: 'The search tool is currently unavailable.',
  },
  {
    type: 'tool_failure',
    source: pattern`\bstatus(?: code)? ?[:=] ?5\d\d\b`,
    example: 'Status: 503',
  },
  {
    type: 'tool_failure',
    source: pattern`\btraceback \(most recent call last\)`,
    example: 'Traceback (most recent call last):',
  },
  {
    type: 'tool_failure',
    source: String.raw`\b(?:econnrefused|econnreset|etimedout|enotfound|eai_again)\b`,
    example: 'Error: connect ECONNREFUSED 127.0.0.1:443',
  },
  {
    type: 'tool_failure',
    source: pattern`\brate limit (?:exceeded|reached)\b`,
    example: 'Rate limit exceeded, try again in a minute.',
  },
  {
    type: 'tool_failure',
    source: pattern`\bconnection (?:was )?(?:refused|reset|timed out)\b`,
    example: 'Connection refused by the remote host.',
  },
  {
    type: 'tool_failure',
    source:
      String.raw`(?<!\b(?:if|when|whether|until|unless|before)\s(?:the\s|a\s|your\s)?)` +
      pattern`\b(?:request|operation|call|query) (?:has )?timed out\b`,
    example: 'The request timed out before the data arrived.',
  },
  {
    type: 'tool_failure',
    source: pattern`\b(?:I|we) (?:was|were) (?:unable|not able) to (?:access|retrieve|fetch|reach|connect to|load|open|run|execute|call|complete the (?:request|search|lookup|call))\b`,
    example: 'I was unable to retrieve the page you linked.',
  },
  {
    type: 'tool_failure',
    source: pattern`\b(?:internal|unexpected|unknown) (?:server )?error (?:has )?occurred\b`,
    example: 'An unexpected error occurred while searching.',
  },
  {
    type: 'tool_failure',
    source: pattern`\bservice (?:is )?(?:temporarily )?unavailable\b`,
    example: 'Service temporarily unavailable.',
  },

  // incomplete reasoning: the answer trails off or leaves its work undone
  {
    type: 'incomplete_reasoning',
    source: String.raw`\betc\b\.?`,
    weight: 0.2,
    region: 'lead',
    example: 'Bring water, snacks, a map, etc.',
  },
  {
    type: 'incomplete_reasoning',
    source: pattern`\band so (?:on|forth)\b`,
    weight: 0.2,
    region: 'lead',
    example: 'Check the cables, the switch, and so on.',
  },
  {
    type: 'incomplete_reasoning',
    source: String.raw`(?:\.\.\.|…)\s{0,20}$`,
    example: 'The first step is to mix the flour and the...',
  },
  {
    type: 'incomplete_reasoning',
    source: pattern`\b(?:(?:details|steps|remaining steps|implementation|explanation) (?:are |is )?(?:omitted|skipped|left out)|left as an exercise)\b`,
    weight: 0.3,
    region: 'lead',
    example: 'The remaining steps are omitted here.',
  },
  {
    type: 'incomplete_reasoning',
    source: pattern`\b(?:I'll|I will) (?:explain|elaborate|cover|go into|address) (?:this|that|it|these|more|the details) (?:later|in a (?:later|follow-up|separate|future) (?:message|response|reply))\b`,
    example: "I'll explain this later in a follow-up message.",
  },
  {
    type: 'incomplete_reasoning',
    source:
      String.raw`(?<=\b(?:due\sto|because\sof)\s)` +
      pattern`\b(?:length|space|character|token|output) (?:limits|limitations|constraints|restrictions)\b`,
    example: 'Due to length limits, the table stops here.',
  },
  {
    type: 'incomplete_reasoning',
    source: pattern`\b(?:response|output|answer|message) (?:was |is |got |has been )?(?:truncated|cut off)\b`,
    example: 'The output was truncated at this point.',
  },
  {
    type: 'incomplete_reasoning',
    source: String.raw`\[(?:insert|add|your|placeholder)\b[^\]\n[]{0,40}\]`,
    weight: 0.3,
    example: 'Dear [insert name here], thank you.',
  },

  // hallucination risk: the model says it lacks the facts, then answers anyway
  {
    type: 'hallucination_risk',
    source: pattern`\bI (?:don't|do not) have (?:access to )?(?:real-time|realtime|real time|live|current|up-to-date|up to date|the latest|recent|today's) (?:data|information|info|prices|pricing|figures|news|updates|market data|stock|weather|access|internet)`,
    example: "I don't have real-time data, but it was near $500.",
  },
  {
    type: 'hallucination_risk',
    source: pattern`\bI(?: cannot| can't|'m unable to| am unable to|'m not able to| am not able to| don't have the ability to| do not have the ability to| don't have access to| do not have access to) (?:browse|access (?:the (?:internet|web)|real-time|live|current|online|external|websites?|urls?|links?)|search the (?:internet|web)|look (?:it |this |that )?up online|${LIVE_LOOKUP}|the internet|the web)\b`,
    example: "I can't browse the internet, so this may be stale.",
  },
  {
    type: 'hallucination_risk',
    source: pattern`\b(?:(?:as of|since|after) my (?:last |latest |most recent )?(?:(?:knowledge|training)(?: data)? )?(?:cutoff|cut-off|cut off|update)|my (?:knowledge|training data|training) (?:cutoff|cut-off) (?:is|was|date)|my (?:knowledge|training data|training) (?:only )?(?:goes|extends|runs|reaches) (?:up )?(?:to|until|through))\b`,
    weight: 0.3,
    region: 'lead',
    example: 'As of my last knowledge update, the CEO was Jane Doe.',
  },
  {
    type: 'hallucination_risk',
    source: pattern`\bI (?:can't|cannot|could not|couldn't|don't|do not) (?:recall|remember) (?:the )?(?:exact|specific|precise)\b`,
    weight: 0.5,
    example: "I can't recall the exact date of the treaty.",
  },
  {
    type: 'hallucination_risk',
    source: pattern`\b(?:citations?|references?|sources?|links?|urls?|quotes?) (?:above |here |I (?:gave|cited|provided) )?(?:may|might|could) (?:not exist|be fabricated|be made up|be inaccurate|not be real)\b`,
    example: 'These citations may not exist in this exact form.',
  },
];
