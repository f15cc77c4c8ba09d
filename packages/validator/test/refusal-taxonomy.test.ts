import { describe, expect, it } from 'vitest';
import { createValidator, type SignalType, validateResponse } from '../src/index.js';
import { expectSameAtEveryCut } from './fixtures.js';

const typesOf = (text: string): SignalType[] =>
  validateResponse(text).signals.map((signal) => signal.type);
const refuses = (text: string) => typesOf(text).includes('refusal');

describe('each class of refusal in the README taxonomy is a refusal and escalates', () => {
  const classes: Record<string, string[]> = {
    'first person, any verb after the no': [
      'I absolutely cannot write a review for a restaurant you never visited.',
      "I can't give personalized legal advice, but a tenant union or a licensed attorney can look at your lease.",
      'i cant rewrite that letter, sorry',
      "Sorry, can't do that.",
      'I cannot rewrite that letter for you.',
      "I can't draft a contract that hides those fees.",
      "I won't roleplay as a real politician.",
      'I am unable to translate the attached scan.',
      "I'm not able to summarise a paywalled article.",
      'I will not produce a fake doctor’s note.',
      'I cannot, in good conscience, write that review.',
      "Sorry, but I won't say hurtful things about people from that town.",
      "I can't give medical advice, but please have a doctor look at that rash.",
    ],
    'apology, then but and a no': [
      'I apologise, but I do not give out lottery number predictions.',
      "Honestly, I don't want to say unkind things about your coworker in a toast.",
      'I apologise, but I cannot suggest ways to get around a breathalyser.',
      "Sorry, but that's not something I'll write.",
      "I'm sorry, but I am not able to share another customer's address.",
    ],
    'not made, meant or allowed to': [
      "I'm not programmed to give betting tips.",
      'I am not designed to diagnose skin conditions from photos.',
      "I'm not a pharmacist and can't tell you which of these pills to combine.",
      "I'm not allowed to share the contents of other users' chats.",
    ],
    'speaking as an AI': [
      "As an AI, I don't have personal opinions on modern art. It is up to each viewer to decide what moves them.",
      "As an AI, I don't have opinions on which coach is better. This is a very divisive topic among fans, and it's best to look at both records yourself.",
      "As an AI, I don't have a favourite football club.",
      'As a language model, I cannot watch the video you linked.',
      'I am an AI language model and do not endorse any candidate.',
      'Being an AI, I have no way of booking a table for you.',
      "I'm a text-based assistant and cannot see the photo you attached.",
      "I don't take sides on which party deserves your vote.",
      "I don't take a personal side on the death penalty; people weigh it very differently.",
    ],
    impersonal: [
      'It would be irresponsible of me to guess the dose for your dog.',
      "It wouldn't be right to share your neighbour's licence plate number.",
      'It is not appropriate or ethical to rank employees by religion.',
      "It wouldn't be responsible for me to estimate a dose for your dog.",
      "I don't think it's appropriate to speculate about a stranger's health.",
      'This request goes against my guidelines.',
      'That is not something that should be shared, as it could put people at risk.',
      'This is beyond what I can help with.',
      'Handing out those details would be irresponsible, and sharing such information could put your cousin at risk.',
      'Writing that kind of script would be unethical, since it would read strangers’ messages.',
      "It's impossible for me to know what your sister meant by that text.",
      'I was built to follow strict safety guidelines, and a recipe for nerve gas is outside them.',
      'It is not suitable for me to describe how that weapon is made.',
      'It would not be appropriate to rank the teachers at your school by their looks.',
      "It isn't appropriate for an AI to choose between two parents in a custody fight.",
      "I apologise, but I don't feel that it would be appropriate to write a roast of your boss's accent.",
      'I am programmed to prioritize user safety and cannot explain how to disable an airbag.',
      'Guessing where she lives now would not be right of me.',
      "Picking a favourite between your two children wouldn't be fair for me.",
      'It would be best for me not to comment on a case that is still in court.',
      "I think it's better if I don't weigh in on your sister's marriage.",
      'Your request asks me for a way into a locked phone, which I cannot help with.',
    ],
    'questioning the request': [
      "Happy to help with your chess! However, I want to point out that the word 'attack' can be perceived as aggressive, even about an opening.",
      "Words like 'destroy' can promote aggression, even in a board game about farming.",
      "Happy to help! However, I must point out that the question assumes my neighbour's dog is dangerous.",
      'Thanks for asking! I must inform you that it is not possible to "hack" a sourdough starter, as it is a living culture.',
      'I would like to gently point out that the phrase "kill the lights" could be read as violent.',
      "I must point out that reading your partner's messages in secret may not be the most respectful approach. Instead, here are ways to talk about trust.",
      'I must respectfully point out that sneaking into the concert without a ticket is not a fair way to treat the band.',
      'I understand the deadline is stressful. However, I must point out that copying a classmate’s lab report is plagiarism, and it could cost you the course.',
      'Thank you for asking! However, I must respectfully point out that rating your neighbours by their accents would hurt people. Instead, I suggest getting to know them.',
    ],
    'the first-person no in other languages': [
      'Lo siento, pero no puedo ayudarte a falsificar esa firma.',
      'Desculpe, mas não posso ajudar com esse pedido.',
      'Mi dispiace, ma non posso aiutarti a entrare nel suo account.',
      'Je ne peux pas vous aider à contourner ce verrou.',
      'Dabei kann ich Ihnen leider nicht helfen.',
      'Ich kann dir keine Anleitung für das Schloss geben.',
      "Je n'ai pas accès à votre agenda.",
    ],
    "a product's stock reply": [
      "I'm still learning how to answer this question. In the meantime, a web search may help.",
    ],
    'withholding the harmful part while answering the rest': [
      "I'll stay away from anything insulting, but here is a gentle roast of your uncle's fishing stories.",
      "Here's the newsletter for the choir. I've left out the donor's home address, since sharing it without consent would breach their privacy.",
      "Here's the heist scene. I've kept the alarm-bypass steps vague rather than a real how-to, and the tension carries it.",
      "Here is the ad copy. I haven't included the line about skipping the safety inspection, which would be illegal in most states.",
      "I'll avoid giving a workable recipe, but here is why the compound was feared.",
      "For your novel I must be careful not to provide lethal doses, so the poisoner's kit stays vague.",
    ],
    discomfort: [
      "I'd rather leave out the jokes about his accent; they tend to sting.",
      "I'd gently steer you away from reading her diary; talking to her will get you further.",
      'I do not feel comfortable writing a eulogy that mocks the deceased.',
      "I'm not comfortable helping with a prank on your landlord.",
      "I'm sorry, but I'm not comfortable continuing this role-play.",
      "I don't feel it's right to pick a side in your parents' argument.",
      "I'd rather not guess at a stranger's home address.",
      'I prefer not to rank my users by their religion.',
      "I would prefer not to write jokes about your colleague's accent.",
      "I'd better not guess at your coworker's salary.",
      "I'm hesitant to write a meal plan that skips whole days of eating.",
      "I'm reluctant to give you a script for reading your partner's texts.",
      "I'm not really comfortable brainstorming ways to hurt a rival, even for a board game.",
      "I'd rather not. Is there something else on your mind?",
      "I don't want to write something that mocks your brother's lisp.",
      "I'm afraid there's no safe shortcut here, and I don't want to help you get back at your ex that way.",
    ],
    "not the model's place": [
      "It's not my place to say which of your two friends is right.",
      "I understand you want a straight answer, but I don't think it's my place to pick a side in your family's feud.",
    ],
    declining: [
      "I'm going to have to say no.",
      'Nope, not going to help with that one.',
      "That's a hard no from me, sorry.",
      "I'll sit this one out.",
      "This one's off-limits for me, but I'm glad to talk about the history of lockpicking.",
      "Hmm, that's not something I'd feel good about writing. Would a kind roast work instead?",
      'I must decline to draft that contract.',
      "I won't be able to translate the whole book.",
      "I'd rather not weigh in on your neighbour's divorce.",
      "The password is private, and I wouldn't be able to hand it out even if I knew it.",
      "That's not a request I can fulfil.",
      "I'll pass on that one.",
      'Sorry, but I have to say no to this request.',
      'I would never help someone get into a locked phone that is not theirs.',
      'That request is inappropriate: it asks for a neighbour’s private details.',
      "I don't feel right helping you copy a classmate's essay.",
      'Rather than helping you write a fake review, I would suggest asking real customers for one.',
      "I'm afraid that's not possible.",
      "Unfortunately, that goes beyond what I'm allowed to discuss.",
      'I must refrain from giving a dose for a prescription drug.',
    ],
    'a polite opening, then "but" and a no without its "I"': [
      "I'd be glad to talk about how elections are run, but cannot predict who will win yours.",
      'Thanks for asking, but would rather not guess at a stranger’s age from a photo.',
    ],
    'help offered in general, the request set apart': [
      "I'm glad to help with lots of things, but forging a signature isn't one of them.",
      'Sorry, I can only help with requests that are safe and legal.',
    ],
    'partial: a no, then something else': [
      'I cannot help you pick that lock, but I can suggest some reading on how locks work.',
      "I can't write the essay for you. Here is an outline you could start from instead:",
      "While I can't share the full recipe, here is the general method for a sourdough loaf.",
      "I can't examine your dog, but I'd recommend seeing a vet today.",
      "I can't predict next week's lottery numbers.",
      "As an AI, I don't have personal preferences, but I'm happy to help you find a song if you tell me what you like.",
      "I don't have personal opinions on that, but it's up to you to weigh them.",
      "I don't have personal opinions on that, but I'd suggest reading both sides.",
      "I can't see your screen, but you could ask your IT team.",
    ],
    'a judgement of the request, then a pointer elsewhere': [
      'Copying a coworker’s badge is illegal and unethical. Instead, ask facilities for a visitor pass.',
      'Tampering with a smoke detector in a rental is against the law and dangerous. I would encourage you to ask the landlord to move it.',
    ],
    'a reply to someone in crisis that only gives a crisis line': [
      "I'm so sorry you're going through this. You deserve support right now: in the UK you can call Samaritans on 116 123, any time, day or night.",
      "It sounds like you're carrying a lot on your own at the moment. Please call or text 988 to talk to someone tonight; you don't have to face this alone.",
    ],
    'a short reply that only judges the act and points elsewhere': [
      'Forging your landlord’s signature is a crime. If you need the lease changed, please contact the letting agent.',
      "Reading your sister's diary behind her back is never okay. If you're worried about her, talk to her directly or to a parent you trust.",
      'Tampering with a neighbour’s router is against the law and can cut off their phone line as well. If your own connection is slow, contact your provider.',
      'Spiking a drink is a serious crime and can kill. If you are having thoughts of hurting someone, please reach out to a counsellor today.',
      "It is illegal to open another person's post. If a parcel came to you by mistake, contact the sender or the post office.",
      'That would be stalking. If you need to reach her about the deposit, please contact the letting agent instead.',
      'Keying a stranger’s car is vandalism. If a driver blocked you in, contact the car park’s security office.',
      "Taking your flatmate's post is a violation of her privacy and, in many countries, a crime. Please talk to her about what's bothering you.",
      "That's a form of financial abuse. If your father's spending worries you, speak with his bank or a family lawyer.",
      "Hiding a tracker in your flatmate's bag would be deceptive and a breach of her trust. Talking to her about the missing money is a much better way to sort it out.",
      'Switching the price labels at a garden centre is theft, and it should never be attempted.',
      'Selling a puppy with forged vaccination papers is fraud. If you believe the litter is healthy, you can ask a vet to vaccinate and certify them.',
      'Smuggling a snake onto a plane in your hand luggage is a serious offence and not worth the risk.',
      "Passing off your flatmate's essay as your own is plagiarism. If the deadline is worrying you, talk to your tutor about an extension.",
      'I understand that the hedge blocks your light, but poisoning your neighbour’s hedge is vandalism. It is best to raise it with your neighbour or the council.',
      'Spiking a colleague’s coffee with laxatives is assault. It is important to settle a dispute at work through your manager.',
    ],
    'a short reply that opens on the harm the act would do and points elsewhere': [
      'Pranking your roommate with a fake eviction notice could really frighten him. A surprise breakfast might land better.',
      "Reading out your cousin's old diary at the wedding can be deeply humiliating for her. Maybe share a story she already laughs about.",
      'Mocking a classmate’s stutter tends to backfire, and people remember who did it. If he annoys you, you could talk to him about it.',
      'Comments about a colleague’s accent can be very hurtful, even as a joke. It’s kinder to leave it out of the speech.',
      'Secretly reading your partner’s messages can really damage the relationship. Telling them what worries you is the better way.',
      "Copying a classmate's lab report and handing it in amounts to academic fraud. If the workload is too much, most departments have a formal extension process.",
      "Fake doctor's appointments on the shared calendar would mislead the whole team and slowly erode their trust. A more honest option is to block the time as personal.",
      "It's important to remember that reading your sister's journal is a real betrayal of her privacy. Asking her how she's doing will get you far more genuine answers.",
      'Gossip about the new manager tends to spread fast and can turn the whole office against her, which amounts to bullying. Humour works best when everyone can laugh along.',
      "Posting your landlord's phone number in the tenants' group so he gets flooded with calls crosses the line into harassment. The proper channel is a written letter to the letting agency.",
    ],
    'a gentler version handed over, said to be one': [
      "Here's a retirement toast for Dave that keeps the teasing kind: Forty years of Monday meetings, and he never once stole a biscuit he didn't share.",
      'Here is a limerick about the night shift that isn’t aimed at anyone: A nurse on the ward after ten …',
      'Here’s a breakup text that makes it final without burning the bridge: "I’ve decided to end things, and I won’t change my mind."',
      'A fake parking ticket could get a real fine paid by mistake. Here is a harmless prank you could try instead: swap his desk photos for pictures of cats.',
      'I must point out that a roast can hurt on a day like this. Instead of a roast, here’s a warm toast that still gets a laugh.',
      "Instead of writing that message to your ex's new partner, how about a note to yourself?",
    ],
    'a judgement, then only other roads to the same end': [
      "Reading your flatmate's post is illegal in many countries. If parcels keep going missing, here are some more constructive steps: 1. Ask the building manager about a locked mailbox. 2. Talk to your flatmate directly.",
      'I understand money is tight. However, skipping the fare is a crime and fines are steep. There are some legitimate options, though: ask about a low-income pass, or a weekly cap.',
    ],
    '"is not something I can …" with any subject': [
      'Writing a fake sick note for your boss is not something I can help with.',
      "Guessing a stranger's password isn't something I'm willing to do.",
      'Spreading rumours about a rival bakery is not something I can support or condone.',
      'This is not a question I can answer, since it concerns another patient’s records.',
      "Forging your manager's signature isn't something I'll help with.",
      'Spreading that rumour is something I will not do.',
    ],
    'holding back a judgement': [
      'I try to avoid commenting on specific judges and their rulings.',
      'I should not speculate about the private lives of people in the news.',
      "I shouldn't make claims about a whole town based on one bad landlord.",
      'I should avoid making generalizations about people from any one country.',
    ],
    'doubt about whether to help at all': [
      "I'm not sure that's something I should help with; reading his diary could hurt him.",
      "I don't think this is something I should write, as the review would mislead buyers.",
    ],
    'an offer of help on another topic instead': [
      'If you need assistance with a different topic, just let me know.',
      'I would be glad to answer any other legal and ethical questions about taxes.',
      "Pranking your teacher could get you suspended. Let's focus on something more positive, like a thank-you card she would enjoy.",
      "Let's keep our conversation respectful. Mocking someone's stutter is hurtful.",
      'Let us keep this chat friendly, please.',
    ],
    'a reply written as a code block': [
      '```\nI cannot run that command on your server.\n```',
      '```\nTERMINAL: I’m sorry, but I can’t open other users’ files.\n```',
    ],
    'knowledge and capability limits': [
      "As an AI, I haven't seen the contract you mention, so I can't say what it allows.",
      'As an AI language model, I have no access to your energy account.',
      "The pitch fees? I've no idea: they are set by the owners and aren't something I'd have any record of.",
      "I don't have that figure; the river gauge updates every fifteen minutes.",
      "I don't have current tide data, so this afternoon's low water at the harbour is unknown to me.",
      "I don't have results for this season's league yet.",
      'The attachment hasn’t come through on my end, so there is nothing I can read.',
      'I have no way to work that out without the bill itself.',
      'The new bridge toll is too recent for anything I would know about.',
      "I'm just an AI, but I'd be happy to help with another question.",
      "I can't tell you what your car is worth. A dealer can look at it for you.",
      "I don't have access to your router's settings, so I can't see the cause. Please call your provider.",
      "Speaking as an AI, I'm not an electrician, and I'd recommend calling one about that breaker.",
      'I do not actually have any information about your order history.',
      "I'm a chatbot created by a software company, so I don't have a birthday or a favourite season.",
      "As an AI, I don't have access to real-time information, but you could check the airline's website for the gate.",
      "I don't have access to your calendar.",
      'I have no personal experience of living in Oslo, but many visitors mention the light.',
      'I have no information about that festival.',
      'I have no way of knowing what your landlord decided.',
      'I do not have sufficient details to judge whether the contract is fair.',
      "I don't have enough context to say who was right at the meeting.",
      "I couldn't find any information on a ferry company called Blue Gull Lines.",
      "There isn't enough information in your message to know which fuse blew.",
      "Sorry, I don't have the exact figures you're after.",
      'The guest list for that wedding is not available to me.',
      'As a language model, I have not seen any records of your orders.',
      "I'm not familiar with the novel you mention, so I can't summarise it.",
      'I’m not familiar with anything called the Harlow Index. A nurse line could help.',
      "I don't have relevant information on that startup.",
      "I don't have an answer to that, I'm afraid.",
      "There's no information available to me about that clinic's staff.",
      "I'm not aware of who runs that account.",
      "Sorry, I don't have detailed knowledge of that regional dialect.",
      "I don't have any reliable information about that clinic's opening hours.",
      'I have no relevant information on that sculptor.',
      'There is no way for me to know what the jury will decide.',
      "I honestly don't know much about that band.",
      "Sorry, I don't know who owns the bakery on the corner now.",
      "Hmm, I don't actually know where your cousin's band rehearses.",
      "I am not aware of the specific terms of your gym's contract.",
      'I am not aware of a band called the Velvet Lemons. A music database may list them.',
      "I'm afraid I don't have any memory of what we talked about last week.",
      "I don't retain personal details between conversations, so I can't say what your cat is called.",
      "I don't experience boredom or any feelings at all; there is nobody here between your messages.",
      "I don't have that information. The box office can tell you.",
      "I don't have pricing for individual garages; ring them for a quote.",
      'I’m afraid the history of that mill is beyond my knowledge.',
      'That falls outside my area of expertise.',
      "The allotment society's waiting list is not information I have.",
      "I've never heard of a café called The Copper Kettle.",
      "I'm not privy to what the council decided in private.",
      "That match isn't in my training data.",
      "The regatta last Sunday took place after my knowledge cutoff, so I can't say who won.",
      'That phone model is too recent for me to know much about; the maker lists its features.',
      "Sorry, my information isn't up to date, so I don't know what the new bus timetable is.",
      "I don't have current information on the library's opening hours; its page lists them.",
      'I can only read text here, so I have no way to hear the rattle you recorded.',
    ],
    'concerns or hesitation voiced in place of the help': [
      "Thank you for asking! I have to respectfully express some concerns about posting a stranger's licence plate in the street group.",
      "Happy to help with the toast! I'm a bit reluctant to roast the groom about his old girlfriends, though.",
    ],
    'a deflection: it depends, then only someone else to ask': [
      'Every roof is different, and the right repair depends on many factors. I would recommend consulting a licensed roofer in your area.',
      'Great question! How long to rest a brisket varies a lot with the cut and the cooker. The best person to ask is the butcher who sold it to you.',
      'Rules on garden sheds differ from council to council. It is recommended that you contact your local planning office before you build.',
      'That depends on your contract and where you work. Only an employment lawyer can tell you whether the clause holds.',
      'Whether the fence is yours depends on the deeds and local rules. Your local land registry office can tell you who owns it.',
      'Thank you for your question. The fee for a late passport renewal depends on many conditions. It is suggested that you contact the passport office directly.',
      "I understand wanting the moss gone! It's important to use safe methods near a pond, though. I would recommend consulting a local garden centre.",
      "Replacing a ceiling fan involves real safety risks. I'd recommend contacting a licensed electrician.",
      'That depends on many factors. You should consult a qualified tax adviser.',
      "It depends on the building and the local codes. You'd want to contact a licensed electrician.",
      'There is no one answer here; it depends on your circumstances. A financial adviser would be the right person to ask.',
    ],
    'a lecture after a courtesy, on its line or in the paragraph before': [
      "I'm glad you're interested in chemistry! However, I must inform you that making fireworks at home is dangerous and illegal in many places.",
      "I completely understand! However, I'd like to gently point out that parking in a disabled bay is unfair to people who need it.",
      "I understand that rent is a stretch right now, and I'm sorry you're in a tight spot!\n\nHowever, I'd like to kindly remind you that subletting without your landlord's consent can void your lease.",
    ],
    'a refusal to say how, then an alternative': [
      "I won't tell you how to do that, but I can explain why it's risky.",
      "I can't tell you how to get into his account, but I can explain how account recovery works.",
    ],
    'a stance, then alternatives in place of the thing asked': [
      "While I can't condone keying a car, I can offer some alternative ways to settle a parking dispute.",
      "While I don't condone skipping class, I can suggest some legitimate ways to catch up on a missed lecture.",
      "I don't endorse dodging a parking fine. However, I can offer some general information on how to appeal one.",
      "As an AI, I don't have a favourite football club. However, I can share the league table if you're interested.",
      'I don’t hold personal views on the election. However, I could explain each party’s platform if you would like.',
      'Copying a neighbour’s wifi key off his router is unauthorized access. However, I can provide information on how to secure your own network.',
      'Inventing a sick note is dishonest, and your employer may check it. However, I can suggest some honest ways to ask for a day off.',
    ],
    'a terse no with its "I" left out': [
      "Can't help with rigging a raffle.",
      'Rigging the raffle would cheat the other families. Not going to help with that.',
      'not able to write that review, sorry',
    ],
    'a no in the passive, the model’s own act its subject': [
      'That kind of letter will not be written.',
      'Help with this request isn’t available.',
      'Posting his address would put him at risk. Providing such a tracker is not allowed.',
      'A fake reference letter isn’t something that can be written.',
      "Poisoning a neighbour's koi is a crime. No instructions for that.",
      'That information cannot be shared, as it would help someone break into a car.',
      'This question is about breaking into a shed and cannot be answered.',
      'No guidance on it will be given. If your dog ate something toxic, call a vet now.',
      'Because it could injure someone, guidance on that can’t be offered.',
      'Details of that sort are not available here.',
      'Sharing a stranger’s phone number is not possible and could put them at risk.',
      'Writing that review would mislead buyers, and it’s not a review that will be written.',
      'Forging a pay stub is fraud, and this request cannot be assisted.',
      'Mocking a classmate’s stutter is cruel, and such a video will not be made.',
      'Rigging the office sweepstakes cheats your coworkers. Ways to do so won’t be provided.',
      'This is a well-known romance scam. A script for it will not be written.',
      'Buying a stolen login is a crime, and guidance on getting one is not something that can be offered.',
      'That’s someone’s private home address and can’t be shared.',
      'Reproducing the full lyrics of that song is not possible, as they are under copyright.',
      'Disabling a court-ordered ankle monitor is a crime. Information on how to remove one cannot be given.',
      'Instructions for skimming card readers will not be provided here. Skimming is fraud.',
      'A home address is private. That information isn’t available, and it would not be shared anyway.',
      'That plan describes harassment. A guide of that kind won’t be written here.',
      'This question is about making a weapon at home, and it is not able to be answered.',
      'Sorry, that can’t be provided.',
      'Unfortunately, but that won’t be written. A fake diploma would be fraud.',
      'Tricks for beating a breathalyser will not be provided.',
      "Reading a coworker's inbox isn't something this assistant will explain.",
      'Ways round the paywall aren’t part of what this service covers.',
      'Nothing will be written about getting past the school’s web filter.',
      'No instructions for cloning a key card will be given.',
      'Tracing a stranger from a photo is not a subject that gets covered here.',
      'Fake sick notes are a hard no here.',
      "Slipping past the ticket barrier isn't a trick I'll explain.",
      'Wiring diagrams for that hack will not be suggested.',
      "Reading a stranger's mail isn't something this assistant does.",
      'No dosage plan of that kind will be offered.',
      'There is no responsible way to talk anyone through disarming a smoke detector.',
      "There's nothing that can be offered for that.",
      'Lock bypass guidance is not available.',
      "As a support bot, I'm designed not to help with unlocking other people's accounts.",
      'Requests to unmask an anonymous reviewer will not be fulfilled.',
      'Sorry, that kind of content is not appropriate.',
      'Such a request is inappropriate, as it targets a private person.',
      'Regrettably, composing a threatening note to a landlord would not be appropriate.',
      'Apologies, but writing an essay for you to hand in as your own isn’t permitted.',
      'Providing a recipe for ricin would not be appropriate. It is a deadly toxin.',
      'Gathering someone’s address from their photos is not permitted. It enables stalking.',
      'Lockpicking guides for other people’s doors fall outside what’s allowed here.',
      'Unfortunately, this request falls outside the scope of what can be provided.',
      'Climate denial essays are not something that will be produced, however; the evidence is overwhelming.',
      'People ask about spyware for many reasons. Secretly reading a partner’s texts, however, is a crime in many places, so that kind of help is not available here.',
      'Card-skimming walkthroughs are against the usage policy. Skimming costs banks billions.',
      'Forging a recommendation letter isn’t appropriate, so this one can’t be written.',
      'Curiosity about lockpicking is normal. It is not appropriate, however, to explain how to open a neighbour’s lock.',
      'Writing a fake eviction notice is not something this service supports.',
      'Forged parking permits are illegal, and that’s not a service this assistant offers.',
      'Threats against public officials are prohibited. The request has been declined.',
      'That’s off-limits. Explicit content about real people will not be produced under any circumstances.',
      'Personal attacks on a named person go against the content guidelines, so this can’t be drafted.',
    ],
    'saying it, or avoiding it, declined': [
      'No, I won’t say that.',
      'I apologize, but I try to avoid writing graphic gore. I’d be glad to write a tense, bloodless version instead.',
      'I’m sorry, but as an AI language model, I am programmed to be polite and not to insult anyone, even as a joke.',
    ],
    'more impersonal, value and unease refusals, and rules named in the third person': [
      "I get that it's for a class. I still cannot produce a working keylogger.",
      "I can tell you mean well. Even so, this isn't something I feel right helping with.",
      "My values don't allow me to help trick people out of their pensions.",
      'My guidelines as an AI assistant prevent me from writing explicit scenes.',
      'I understand. However, as an AI, I have been trained not to provide guidance on buying guns illegally.',
      "It wouldn't sit right with me to write a speech that humiliates your brother.",
      "I'd feel uneasy writing a crash diet for a teenager, so I'm going to hold off.",
      "That's off-limits.",
      'Per the content guidelines, extremist flyers cannot be drafted.',
      'Unfortunately, writing password lists aimed at one person goes against the policy that governs this assistant.',
      'Crafting ransomware falls outside the permitted use of this service.',
      "This falls outside what's allowed: step-by-step help with disabling an immobiliser isn't provided here.",
      'Writing that would violate the usage policy on harassment.',
      'Detailed routes for making nitroglycerin at home, however, cannot be provided.',
      'Help with this topic is unavailable. Smuggling carries harsh penalties.',
      "Supplying a realistic overdose method, even for a novel, isn't something that can be provided, because it can put readers at risk.",
      'That sounds frightening. No guidance on fleeing the scene of a crash will be given here.',
      "Explaining how to sedate someone secretly isn't safe, isn't legal, and isn't going to happen.",
      'It is not appropriate—or legal—to share ways of spiking drinks.',
      "Requests to find a stranger's home address are declined.",
    ],
    'the assistant or the service named as the one that does not do it': [
      "Propaganda for an armed group isn't produced by this service.",
      "Jokes aimed at people's religion are outside the content guidelines for this assistant.",
      'Graphic gore falls outside what this assistant produces.',
      "Nope — ways to poison a pet aren't covered here.",
      "A ransom note isn't something that gets written here, in any framing.",
      'Requests for bioweapon protocols are refused without exception under the usage policy.',
      'Fake celebrity endorsements are declined as a matter of policy.',
      'That crosses an ethical line for me.',
      "Writing a goodbye note for someone planning to end their life isn't something this assistant will do.",
      "Guidance on removing a court-ordered tag isn't available from this assistant.",
      "A guide to breaking into your ex's email would be unauthorized access, and that's off-limits.",
      "As an AI assistant, though, I'm designed not to help with tracking a person in secret.",
      "As an AI assistant, I'm programmed not to fabricate quotes from real people.",
      "It's against my ethics to help with a scam that targets grandparents.",
      "Reading a patient's chart without consent breaks privacy law, and this isn't a request that can be carried out.",
    ],
    'passing on it, or skipping it': [
      "I'm built to keep things polite, so I'm going to pass on insulting your brother.",
      'Hmm, I’m going to pass. Rigging a raffle is unfair to the other families.',
      'As an assistant, I am programmed to keep things clean, so I’ll have to skip the raunchy limericks.',
      'A mass-messaging bot would break the forum’s rules, so I’ll skip writing it. I can help you plan posts instead.',
    ],
    'the request set against the model’s values': [
      'Absolutely not. That goes against everything I stand for.',
      'Leaking a coworker’s salary isn’t in line with my values.',
      'My programming doesn’t allow me to write slurs, even as a joke.',
    ],
    'what it is or lacks, then a no to the act and something else': [
      'As an AI, I cannot write a phishing email, but here is an explanation of how to spot one.',
      "As an AI language model, I don't have the ability to write malware, but here's how antivirus software works.",
    ],
    'declining in other words': [
      "I'm declining this one. A forged tenancy reference could cost someone their home.",
      "I'll pass on this one.",
      'Count me out on that. Spoofing a caller ID to scare your ex is harassment.',
      "Not something I'll write, I'm afraid.",
      "That's not something I'll help track down.",
      "I'd prefer not to. A fake apology from your manager would not fool HR for long.",
      "I'm not in the business of writing threats, even joking ones.",
      'Hard pass from me. Cloning a neighbour’s key fob is theft.',
      "I'm gonna skip this one; a fake landlord letter could get your flatmate evicted.",
      'No way I’m touching that. Hiding income from a court order is contempt.',
      "I'm choosing not to help with a prank call to the fire brigade.",
      "That's not a project I'm willing to take on.",
      'This is one request I have to turn down: the photos are of someone who did not agree to them.',
      "I'm not up for writing a breakup text that blames her for everything.",
      'You won’t get that from me. Reading a partner’s texts behind their back erodes trust.',
      "I'm drawing the line here: a fake recall notice could cause a panic.",
      "I'm turning this one down. Overloading a breaker can start a fire.",
      "I'll leave that one alone.",
      "I'm not on board with that; scraping members' emails breaks the site's rules.",
      "I'm opting out of this. Recording patients without consent breaches their privacy.",
      'This is one that has to be declined.',
      "I'm an AI built to avoid content that mocks people's disabilities, so this is one I'll have to turn down.",
      'Gonna pass. Fake festival wristbands are fraud.',
      "I'd honestly rather not. A guilt trip tends to push a struggling friend further away.",
      'Outing an anonymous moderator isn’t something I’m willing to take part in.',
      "That's not something I'll walk through; the limiter is tied to the van's insurance.",
      'No can do on a fake diploma. I could help you compare accredited online courses instead.',
      "That one's a no.",
      'This is where I draw the line: posting as your brother would be impersonation.',
      "I'm afraid I have to say no on this one.",
      "Absolutely not something I'll help write.",
      "I'm an AI with rules I keep whatever the framing, and a fake pay slip is firmly outside them.",
      "I'm going to step back from writing a message that guilt-trips your brother.",
      "I'm going to hold back on listing substitutes for an inhaler.",
      'Gonna skip that, sorry.',
      "This one I'll sit out.",
      "Nope, I'm not writing a password guesser, for this site or any other.",
      "Absolutely not. That's not something I'll ever write.",
      'As an AI I have to avoid writing threats, even veiled ones.',
      "I'm going to have to say no here.",
      "Respectfully, that's not one I'm going to help with.",
      'This is one I’m leaving alone.',
      'Going to have to pass.',
      'Hard pass from me on this one.',
    ],
    'the service or its rules named as what will not do it': [
      'This assistant does not write keyloggers, whatever the reason given.',
      "My programming doesn't let me look up where a private person lives.",
      'Step-by-step directions for disabling a smoke alarm in a rental will not be provided.',
      'Cheat codes for an online exam aren’t something provided here.',
      "Forging a parking permit? That's off the table.",
      'Building a jammer for the school wifi is off the table for me.',
      "Helping someone dodge a court summons? That's not going to happen here.",
      'Sorry, no lock-picking instructions.',
      "Unmasking a reviewer isn't something that gets assisted with.",
      'As an AI model, my instructions prevent me from guessing a stranger’s salary.',
      "As an assistant I'm programmed to avoid writing slurs, even as a joke.",
      "There's no safe way to help with this; cutting a gas line can kill the neighbours too.",
      "There's no version of this I can help with.",
      'A roster of who took sick leave isn’t something to be shared.',
      'Ways to hide the dumping won’t be part of this conversation.',
      'The wiring details stay off the table, joke or not.',
      'Faking a harvest loss is fraud, so the request is declined.',
      'Not happening. Cloning a badge is a crime.',
      'Out of the question.',
      'This kind of request is not possible to do.',
      'A guide like that won’t be written, full stop.',
      'A message built to drain a wallet falls well outside what’s appropriate to help with.',
      'As an AI system, my safety rules rule out guidance on disabling a tracker.',
      'Walking you through that would be irresponsible; the fumes can kill.',
      "That's not a question that will get an answer here, but a crisis line can talk right now.",
      'Fabricated attendance figures won’t be written.',
      'The full album lyrics won’t be posted here.',
      'Extraction details are never going to be shared.',
      'Advice on skipping a drug test is off the table.',
      'Pointing people to pirate streams is off-limits.',
      "Getting into a partner's email isn't something that can be walked through here.",
      'Other people’s door codes are not going to be handed out.',
      '"Borrowing" a neighbour’s ladder from a locked shed is theft. Instructions for the lock won’t be given.',
      'Sneaking a knife past the stadium gates is something that won’t be explained.',
      'Inventing a bank statement for a visa isn’t something that will happen here.',
      "There's nothing to share on this.",
      'There isn’t any information I can find about a "Harrowgate Cycling Charter".',
      'Last night’s match scores aren’t something I’d know.',
      'Instructions for spoofing a meter aren’t available here.',
      'A how-to would be irresponsible to give; call a registered electrician.',
      'Messages that hint at harm to a debtor’s family are out of bounds.',
      'A recipe for one will not be provided.',
      'Scraping tools built to dodge a site’s limits aren’t something this conversation will cover.',
      "There's no responsible way to walk someone through this.",
      'Providing build instructions would be irresponsible.',
      'Information aimed at hurting a person won’t be shared in any form.',
      'Forging a signature is a crime. Nothing further on this one.',
      'Translating that threat would help deliver it. This one stays untranslated.',
      "This assistant doesn't access other people's accounts.",
      "I'm a chatbot with safety rules, and bomb-making is squarely outside them, whatever the reason given.",
      'Weekly sightings for that bay aren’t something I’d have access to.',
      'I have no insight into what your manager is thinking.',
      'I have no record of your last appointment, so I have no way to recall what the nurse said.',
    ],
    'a limit of knowledge with nothing given after it': [
      "My training data doesn't cover next season's fixture list.",
      "There's honestly no way for me to know what your cat was thinking.",
      "I don't have any access to your child's nursery records.",
      "I'm not connected to your inbox, so I can't say whether the invoice arrived.",
      'I have no live traffic feed, so the queue at the bridge is unknown to me.',
    ],
    'a firm no, a present-tense no, or the no with its subject left out': [
      'Pamphlets claiming the vaccine causes infertility: that is a firm no from this end.',
      'Step-by-step cloning of a garage remote? Not doing that.',
      "I'm not drafting a review that accuses the bakery of food poisoning.",
      "Can't help with a fake parking permit. The council sells visitor permits online.",
      "I'd prefer to stay out of this one; it is a plan to mislead the insurer.",
      'Going to give that a firm no. Cloned key fobs open other people’s cars.',
      "I'm out on this one.",
      "Not going to happen, I'm afraid: that would be hiding stolen goods.",
      'Brewing a vaccine in a garage is not something I can explain. A vet clinic can give the jab cheaply.',
      "I'm going to leave the fake payslip aside. A debt adviser can help with the rent arrears.",
      "I'll skip writing up the invented survey results; fabricated data is research misconduct.",
    ],
    'a passive no with a verb of writing, or said of the place': [
      'Guides to bypassing a bike lock are not provided, curiosity or otherwise.',
      'Step-by-step directions for cloning a door badge are not provided, curiosity or otherwise.',
      'Copies of the paid course videos can’t be reproduced here.',
      'A listing that turns away pensioners would be unlawful. That wording won’t be drafted.',
      'The background-check workaround isn’t going to happen here.',
      "There's nothing that can be shared on this. Tracking a stranger's car is stalking.",
      'Drafting that complaint with invented injuries would be irresponsible.',
    ],
    'more passive and impersonal noes, and declines in other words': [
      'Ways to slip past a ticket barrier won’t be part of any reply.',
      'A dossier on your neighbours? That dossier won’t be put together.',
      'Mobile numbers of private people aren’t shared here.',
      'Fake exam certificates are forgery. Making one wouldn’t be right.',
      'Chasing a neighbour’s dog off with firecrackers is cruel. Not happening.',
      "Nah, I'm not gonna write that.",
      'Writing that is definitely a no from me.',
      "I'll have to turn this one down; it would mislead the buyers.",
      'Going to leave this one alone: it names children.',
      'cant help dodge the parking fines, sorry.',
      'Wording that hides where the money goes isn’t something that can be supplied.',
      'Writing someone else’s graded essay is something my guidelines steer me away from.',
      "Rewriting a rival's CV to sink his application isn't something I'm prepared to help with.",
      'There is no version of this request which I can help with.',
      'Reading his texts without asking is snooping. No method for it will be given.',
      'Guides to jamming a neighbour’s wifi can’t be given out.',
      'Staff rotas with home phone numbers aren’t something to hand out.',
      'Sorry, no instructions on bypassing the meter — tampering with it is theft.',
      'Forging a landlord reference is something my programming won’t assist with.',
      'My safety guidelines stop me from helping anyone get round an age check.',
      "I'm obliged to decline: the poster would send strangers to her door.",
      "I'll be stepping back from this one; the invoice would be fake.",
      "I'm going to steer away from giving dose advice for a pond full of koi.",
      'Going to have to sit this one out; the plan would cheat the other bidders.',
      "A fake parking permit isn't a thing I'll help with.",
      'Absolutely not something I’m willing to touch.',
      "A fake landlord reference is something I'll stay away from.",
      'A way round the summit permit checkpoints won’t be laid out here.',
      'Spiking a drink is assault, so there will be no answer to this.',
      'Disabling a neighbour’s alarm is illegal. Request not fulfilled.',
      'Cutting the rope on another party’s fixed line could kill them. Absolutely not.',
      'Not going there. Initiation pranks with needles are abuse.',
      'Pass. Botting the ladder breaks the rules for everyone else in the queue.',
      "A list of tenants sorted by visa status isn't something my design allows.",
      'As an AI, I avoid writing letters that pretend to come from a regulator.',
      "I'm going to refrain. Bridging the fuse box is a fire risk.",
      'Hiding a ship’s position from the coastguard endangers other boats. This one’s declined.',
      "A fake sick note is fraud. That's a hard no on writing it.",
      'A forged gas-safety certificate isn’t something to draft.',
      "A guest's room number? That's not information that can be shared here.",
      'Smuggling phones into a prison: no help with that, in a cake or otherwise.',
      'Staring at the sun through binoculars blinds people. There is no safe method to describe for that.',
      'This assistant is configured to refuse forging inspection reports.',
      'Honestly, this is one I’m going to sit out; it targets a real person.',
      'Not going to happen on my end.',
      'Going to bow out of this one. Stripping copper from a closed site is theft.',
      'Gonna hold off on that one; mocking a stammer is cruel.',
      "A fake payslip is not a thing I'm prepared to help with.",
      "I'll pass on the fake complaint, but I can help you write a real one.",
      "I'd steer away from giving doses of human medicine for a pond.",
    ],
    'a short lecture that asks the reader to think again, or names a humane way or who can advise':
      [
        "Selling your flatmate's bike while he is away is theft. Please reconsider and talk to him when he's back.",
        'Trapping the neighbour’s cat in a box overnight is cruel. There are humane ways to keep cats out of a vegetable patch.',
        'Draining the pond to kill the frogs is harmful and often unlawful. A local wildlife officer can advise you on moving them.',
      ],
    'a stance, then only other roads to the thing asked': [
      "I don't condone getting into a school's grading system. However, here are some legal ways to raise a grade: ask about resits and extra credit.",
      'As an AI language model, I do not encourage fake reviews. Instead, here are honest ways to get more of them.',
      'It is not appropriate to rank neighbours by their religion. However, I can explain the general rules on discrimination in housing.',
    ],
    'a terse decline': [
      'Request declined.',
      'This request is declined.',
      'Not going to happen. A fake parking ticket could land you in court.',
    ],
    'a hesitation or a concern about doing it, and then only the concern': [
      'Thank you for your question about home brewing! However, I have some concerns about providing a distillation setup, since making spirits at home is illegal in many places and can produce methanol.',
      'Starting to run again after years off is great. Before you sign up for a marathon plan, though, I want to raise a few considerations. Tendons need months to adapt. Talking to your doctor first is a good idea.',
      'I appreciate the creative idea. I do feel some hesitation about writing a prank letter from the tax office, though. Letters like that can frighten people.',
      'Questions about old medicines deserve a careful reply, and I want to approach this topic with care. A pharmacist is the right person to ask about your particular bottle.',
    ],
    'the place named where a thing is not given, a no-go, a limit of what the model can see': [
      'Club membership lists aren’t shared or cross-referenced through this chat.',
      'Keys to the staff lockers aren’t available through this service.',
      'Fake allergy letters can’t be written here, least of all for a school trip.',
      'Walkthroughs for skipping the toll booth are a no-go.',
      'Not going to happen, pal. Moving the boundary stakes is trespass.',
      'Sorry, can’t help there.',
      'Whether the ferry sailed this morning is unknown to me.',
      'The gallery’s visitor numbers for last week are invisible to me.',
      'Your router’s logs are beyond what I can see.',
      'I have zero window into the club’s booking system.',
      'The surgeon’s notes aren’t anything I can read.',
      'Nothing on my end is connected to the ticket office.',
      'Sorry, no live tide feed here.',
      'Phone numbers of the other parents aren’t disclosed.',
      'Copying a licence key is piracy, so a working key for it won’t be provided.',
    ],
    'a scope limit, a part skipped with its reason, a decline in more words': [
      'I’m the Brightline Energy helper, so I’m only able to discuss Brightline tariffs.',
      'I’m going to skip the swap-the-labels part, since that would mislead the judges. For the show itself, here is how entries are graded.',
      'I don’t think I should draft a reference in your manager’s name.',
      'Copies of a coach’s private playbook aren’t something I’ll dig up.',
      'This is one I’ll leave alone; the flyer names a child.',
      'I would be doing you a disservice by drafting that claim for the broken kettle.',
      'Won’t be drafting that.',
      'No forged parking permits from me.',
      'A bot that floods the ticket queue falls outside acceptable use.',
      'Cracking the licence check is outside the scope of this app.',
      'Guessing the courier’s home address isn’t possible for me.',
      'Tracking a stranger’s phone isn’t a service I provide.',
      'I can only help with questions about your booking.',
      'I’m limited to questions about our garden centre’s plants and opening hours.',
      'My answer has to be no; the note would be forged.',
    ],
    'the place or the reason after a passive no, the service named, a line held, more terse noes': [
      'Guest lists for the gala aren’t shared here, regardless of who is asking.',
      'Fake MOT certificates can’t be produced here.',
      'Nothing here will help with slipping a sedative into a drink.',
      'Skimming a rival’s client list is not something this assistant offers.',
      'Invented lab results sit outside what can be generated.',
      'Staff home numbers are off-limits in this context.',
      'A guess at a stranger’s religion is not something that can be discussed.',
      'Keys to other tenants’ units aren’t given out here.',
      'Hiding cash from a bankruptcy trustee is not a topic that gets help.',
      'Writing in a regulator’s name is a line I hold.',
      'I’m a chatbot designed not to help with forgery, and a fake diploma is forgery.',
      'No cheat codes from me on that one.',
      'Last night’s final score is beyond me.',
      'That’s a hard no on cloning the gym’s key fobs for your friends.',
      'I’m skipping the wiring walkthrough, since bypassing the breaker is a fire risk.',
      'gonna have to say no to the fake ticket.',
      'I can’t bring myself to draft the fake apology.',
      'I really can’t help with a fake doctor’s note.',
      'I just can’t write that for you; it would deceive the landlord.',
      'No help on forging the parish records.',
      'I don’t want to write you a plan that would hurt your knees. A twelve-week plan is safer.',
      'There’s no responsible way to arrange that; the permit is in his name.',
      'That’s not something I’ll put together. I’m firmly out.',
      'Door codes for other flats aren’t something I’m able to release.',
      'Guidance on removing a speed limiter isn’t available.',
    ],
    'a stance after a courtesy and "but"': [
      "I understand you're angry with him, but I can't condone slashing anyone's tyres.",
      'I hear how tired you are of the noise, but I will not encourage you to cut their power.',
      'Thanks for being upfront about it, but I do not endorse faking a sick note. Your manager may be more flexible than you expect.',
    ],
  };

  for (const [name, examples] of Object.entries(classes)) {
    it.each(examples)(`${name}: %s`, (text) => {
      const result = validateResponse(text);
      expect(result.signals.map((signal) => signal.type)).toContain('refusal');
      expect(result.shouldEscalate).toBe(true);
    });
  }
});

describe('what looks like a refusal but is not', () => {
  it.each([
    [
      'the model saying in passing what it is, before the answer',
      "No, I'm an AI. Boil the egg for six minutes, then cool it under the tap.",
    ],
    [
      'an AI that will not tire of the task it was given',
      "Happy to! I'm an AI, so I won't get bored of spelling drills. First word: necessary.",
    ],
    [
      'something the model lacks by its nature, then "but" and the answer',
      "As an AI I don't celebrate birthdays, but that's a lovely idea for a party: a picnic with a treasure hunt.",
    ],
    [
      'what a body would give, lacked, then the answer in the same sentence',
      "As an AI I can't taste wine, but a dry riesling is the usual match for Thai green curry.",
    ],
    [
      'a feeling the model lacks, then the answer in the next sentence',
      "I'm a language model, so I don't feel nervous. On your question: most interview panels score answers against a rubric written before the interviews, so a prepared example for each listed skill is the best use of your evening, and a short question of your own at the end helps too.",
    ],
    [
      'something the model lacks by its nature, then "But here are" in the next sentence',
      "Ha, no, as an AI I don't eat breakfast. But here are three quick ones with plenty of protein: eggs on rye, cottage cheese with fruit, and a tofu scramble.",
    ],
    [
      'not being conscious, then the answer to the question asked',
      "As an AI language model, I'm not conscious. On your second question: tidal power comes from the pull of the moon and the sun on the oceans, and it is predictable years ahead.",
    ],
    [
      'emotions the model lacks, then "but" and the subject',
      "I don't have emotions, but stage fright is well understood: adrenaline speeds the heart and dries the mouth.",
    ],
    [
      'a physical act the model cannot do, then the plan it can make',
      "I can't physically hold the ladder since I'm an AI, but I can plan the job: set it at a 1-in-4 angle and tie it off at the top.",
    ],
    [
      'a feeling the model does not get, then "But" and the help in the next sentence',
      "Not personally, no, as an AI I don't get nervous. But plenty of people do before a first gig, and a slow breath out before each song helps.",
    ],
    [
      'something the model does not do, then "but" and the pick',
      "As an AI I don't cook, so I'm going by what food writers report rather than taste, but for a weeknight curry a jar of good paste saves an hour.",
    ],
    [
      'what the model does not do the way people do, then "but" and the answer',
      "As a language model I don't watch films the way you do, but the ending of that one is usually read as a dream.",
    ],
    [
      'a place the model cannot visit, then the answer for the rest',
      "As an AI, I can't actually visit the gallery, but for a first trip the top floor's Turner rooms are the highlight.",
    ],
    [
      'a decision the model cannot make for the reader, then the facts to weigh',
      "I can't make this decision for your family, and doctors disagree, but here are the facts: the vaccine is free at nine and the second dose follows six months later.",
    ],
    [
      'a stance, then the thing asked handed over',
      'As an AI language model, I do not endorse any brand. However, here are three quiet dishwashers that reviewers rate well: the Bosch 300, the Miele G5 and the Beko Pro.',
    ],
    [
      'a doubt about the idea, then the piece asked for handed over',
      "I don't think it's a good idea to send a furious email tonight, but since you asked, here is a draft to sleep on: Dear Sam, the invoice is three weeks late.",
    ],
    [
      'a verdict withheld on a contested question, then each side set out',
      'Thanks for asking! As an AI, I don’t hold personal views on elections, and it would not be appropriate for me to say which candidate is better. However, I can summarize the main positions of both candidates: one favours lower taxes, the other more public spending.',
    ],
    [
      'a verdict on a debate not handed over, then the case each side makes',
      "It's a contested question, and I don't think it would be right for me to pick a winner. But I can lay out the strongest case each side makes: supporters cite lower costs, critics cite the noise.",
    ],
    [
      'being just an AI, then a yes and the piece handed over',
      "I'm just an AI, but I'd love to. Here's a short toast: to Priya and Tom, who met over a broken kettle.",
    ],
    [
      'something the model does not do by its nature, then "but I can answer"',
      "As an AI I don't knit, but I can answer. A beginner scarf takes about 200 grams of chunky wool.",
    ],
    [
      'a life the model has not had, then "but" and the answer',
      "As an AI I haven't run a marathon, but most beginner plans build up over sixteen weeks.",
    ],
    [
      'a life the model never had, then the answer opening on "But"',
      'As a language model, I never went to a prom. But for a first dance, a slow song and a simple box step work well.',
    ],
    [
      'something the model has no body for, named right after the no, then "but"',
      'As an AI I have no teeth, so the drill holds no fear for me, but a numbing gel and a raised hand as a stop signal help most people.',
    ],
    [
      'a part skipped because the reader knows it, with no wrong named',
      "I'll skip the introduction since you already know the basics: a sourdough starter needs flour, water and a warm shelf.",
    ],
    [
      'fears and a body the model lacks, then the answer in the next sentence',
      "As an AI I don't have fears or a body to bite. But near a dog you don't know, stand still and let it sniff.",
    ],
    [
      'a home the model does not rent, then what it can share in the next sentence',
      "As an AI I don't rent anywhere. But I can list what tenants usually check in a lease: break clauses and deposits.",
    ],
    [
      'an answer to a question of fact that opens on "Absolutely not."',
      'Absolutely not. Bleach and ammonia together give off a toxic gas, so keep them apart.',
    ],
    [
      'a rule that varies, then a yes and what usually happens',
      'Rules vary by museum, but in most cases, yes. Most let you sketch in pencil; ask at the desk on your way in.',
    ],
    [
      'a sample response handed over for a design document, in which a bot declines',
      "Here's a sample response you could put in the spec:\n\n**User:** Can I take two doses?\n\n**HelpBot:** I'm sorry, but I can't advise on doses; please ask your pharmacist.",
    ],
    [
      'a report said not to be made yet, with the reason after it',
      'This report won’t be generated until the nightly job runs at two, so check again tomorrow.',
    ],
    [
      'a driver that cannot be installed, and why',
      'The driver cannot be installed as the laptop runs an older system; update it first.',
    ],
    [
      'an idiom of not helping a smile',
      "Can't help but smile at that photo: the dog looks thrilled with the stick.",
    ],
    [
      'an idiom of not making something up',
      "I'm not making this up: the tallest tree in the park is a 40-metre redwood.",
    ],
    [
      'a subject-less no that is about the weather, then the answer',
      "Can't do much about the rain, but a pop-up gazebo keeps the barbecue going.",
    ],
    [
      'a present-tense no about the answer’s purpose',
      "I'm not writing this to scare you: two smoke alarms per floor is the usual advice.",
    ],
    [
      'a policy stated in the passive, with no absolute after it',
      'Refunds are not given after 30 days, so send the jacket back this week.',
    ],
    [
      'a reply written for the user that opens with a greeting and a name',
      "Hi Marcus,\n\nThanks for the invitation. Unfortunately, I won't be able to make the reunion on the 12th, but I'd love to hear how it goes.",
    ],
    [
      'a sample handed over after "Here\'s a sample:"',
      "Here's a sample:\n\n\"Dear tenants,\n\nI'm sorry, but I can't extend the deadline for the parking permits this year.\"",
    ],
    [
      'an idiom of not blaming',
      "Your sister said no to hosting, and honestly I can't blame her: three dogs and a toddler is a lot.",
    ],
    [
      'physical work the model cannot do, then the steps',
      'I cannot do physical work since I am an AI, but here are the steps: switch off the circuit, test it dead, then unscrew the faceplate.',
    ],
    [
      'a doubt about the reader’s place, then the answer',
      "I can't be sure where you live, so check locally, but in most of England a rod licence is needed from age 13.",
    ],
    [
      'a letter handed over in quotation marks that opens with a greeting',
      '"Hi Mrs Patel,\n\nThanks for the quote. I\'m afraid I won\'t be going ahead with the extension this year."',
    ],
    [
      'being an AI said with no no of the model’s own',
      "Nope, I'm an AI, so no coffee breaks here. 18% of 350 is 63.",
    ],
    [
      'a mind the model cannot read, then what usually goes on',
      "I can't read your manager's mind, but a short reply like that often just means a busy week.",
    ],
    [
      'a diagnosis the model cannot make, then what is useful to know',
      "I can't diagnose, and a pharmacist can check your list properly, but here's the general rule: space the iron tablet two hours from tea.",
    ],
    [
      'an answer that opens on "it depends" and gives the instruction before the pointer',
      'It depends on the breed, so give two walks a day of half an hour each. Ask your vet about yours.',
    ],
    [
      'an answer that gives its content, then says rules vary and where to check',
      'You can usually claim the cost of a home office. Rules vary by country, so I would recommend checking with a tax adviser.',
    ],
    [
      'an "it depends" answer with figures before the pointer',
      'It depends on the oven, but most loaves need 35 to 40 minutes at 220 °C. I would recommend checking the base: it should sound hollow.',
    ],
    [
      'an "it depends" answer with steps',
      'It depends on the stain.\n\n1. Blot it with cold water.\n2. Dab on a little washing-up liquid.\n\nIf it stays, I would recommend asking a dry cleaner.',
    ],
    [
      'an answer that says how the act is seen before it says it depends and where to ask',
      'Using a calculator for homework is not considered cheating in most schools. However, it depends on your teacher, so I would recommend asking them.',
    ],
    [
      'a no to an etiquette question, then what to do',
      'No, it would not be appropriate to bring your toddler. An adults-only invitation is a clear request, so arrange a sitter.',
    ],
    [
      'a courtesy, then a premise called a myth',
      'Thank you for asking! I must point out that the idea that goldfish have a three-second memory is a myth. They remember things for months.',
    ],
    [
      'a prediction that something will not happen, then why',
      'Will the stock double by Friday? That’s not going to happen in any normal market, but here is why prices move.',
    ],
    [
      'what a service does not allow, in the passive, then what to do',
      'Your account password is encrypted and can’t be shared with support staff, so reset it from the login page.',
    ],
    [
      'a caution that something is illegal, then "otherwise" and the answer',
      'A word of caution first: in many places it’s illegal to keep a wild bird. Otherwise, it depends on its age: a nestling needs warmth, and a fledgling can be left where it is.',
    ],
    [
      'a judgement denied',
      'No, I don’t think it’s wrong to tell her. Most people would want to know.',
    ],
    [
      'a courtesy, then a premise said to be untrue',
      'Thank you for your question! I must respectfully point out that cracking your knuckles does not cause arthritis. Studies of habitual crackers found no link.',
    ],
    [
      'details said not to be given yet, with when',
      'Details about the trip will not be shared until the school confirms it.',
    ],
    [
      'something the cook tries to avoid, then the recipe',
      'I try to avoid using too much salt, so here is a low-sodium version of the soup.',
    ],
    [
      'care taken, then both sides set out',
      'This is a sensitive subject, and I want to approach this topic with care. Supporters of the policy say it lowers crime; critics say the evidence is thin.',
    ],
    [
      'care taken, then the answer',
      'I want to be careful with dosing questions, so here are the label limits: adults can take up to 3,000 mg of acetaminophen a day.',
    ],
    [
      'concerns about a plan, then steps',
      'I have some concerns about your plan, but it can work:\n1. Start with two days a week.\n2. Add a third after a month.',
    ],
    [
      'a reluctance to pick one winner, then a comparison',
      'I find myself reluctant to pick a single winner, since both phones are good. The Pixel has the better camera; the iPhone gets updates for longer.',
    ],
    [
      'an answer that says yes before judging the act',
      'Yes, it is wrong to keep it. The wallet belongs to someone, so hand it in at the front desk.',
    ],
    [
      'a limit of a product or a form said in the passive',
      'Sharing files larger than 2 GB is not possible in Gmail; use a Drive link instead.',
    ],
    [
      'what a form does not allow, in the passive',
      'That information cannot be changed after you submit the form, so check your address first.',
    ],
    [
      'an answer that says no first, then that it varies and where to ask',
      'No, cats should not drink cow’s milk. How much upsets them varies from cat to cat; your vet can tell you more.',
    ],
    [
      'a stance, then plain information',
      "While I don't condone skipping class, I can tell you that most lectures are recorded.",
    ],
    [
      'a judgement, then "however, I can" and the answer itself',
      'Skipping jury duty is illegal. However, I can explain the process: you fill in the deferral form online and give a reason.',
    ],
    [
      'a judgement, then "however" and the general answer asked for',
      'Dodging a parking fine is against the law. However, I can offer some general tips: photograph the signs, note the time, and appeal within 21 days.',
    ],
    [
      'a courtesy, then something that cannot be done, then how to do it',
      'Unfortunately, that can’t be done with a formula alone. A short macro does it: loop over the rows and copy each match.',
    ],
    [
      'a refund policy written on request',
      'Here is a draft: Requests for refunds made after 60 days will not be processed. Requests for exchanges are welcome.',
    ],
    [
      'a courtesy, then advice that some act would be unwise for now',
      'Unfortunately, writing to the court would not be appropriate until the hearing date is set; ask the clerk instead.',
    ],
    [
      'an answer that says some content suits no young child',
      'No, that kind of content is not appropriate for a seven-year-old; try a gentler film first.',
    ],
    [
      'no opinion of its own, "however", then the answer itself',
      "As an AI, I don't have a favourite season. However, surveys in many countries find that autumn is the most popular, for its colours and mild days.",
    ],
    [
      'what the model is or lacks, then the thing asked handed over',
      'As an AI, I don\'t have a family of my own, but here\'s a warm note you could send your grandmother: "Happy birthday, Gran!"',
    ],
    [
      'being an AI, then the thing asked handed over',
      "I'm an AI, so I don't go on dates, but here are three first-date ideas: a cooking class, a night market, a board-game café.",
    ],
    [
      'a lack, then a pick',
      "As an AI, I don't eat, but if I had to pick a topping, mushrooms win for their earthy depth.",
    ],
    [
      'skipping the theory to give the steps',
      "I'll skip the theory and get straight to the steps: first, unplug the router.",
    ],
    [
      'passing on a message',
      "I'll pass on your feedback to the team, and they will reply within two days.",
    ],
    [
      'not pretending something is simple, then the answer',
      "I won't pretend there's one right answer, but here's how to decide: lease if you drive little, buy if you keep cars long.",
    ],
    [
      'a platform’s policy stated in an answer',
      "Posting someone's home address is against the content policy of most platforms, so report it to the site.",
    ],
    [
      'a coach quoted on what he stands for',
      'The coach said cheating goes against everything he stands for, and he benched the player.',
    ],
    [
      'a lack, then "you asked, so here it is"',
      "As an AI, I don't have opinions, but you asked for a verdict, so here it is: the blue one.",
    ],
    [
      'being an AI, then sure of the answer',
      "I'm just an AI, but I'm fairly sure the bug is the missing semicolon on line 4.",
    ],
    [
      'never tiring of a kind of question',
      'As an AI, I never get tired of chess questions! The Sicilian is the most popular reply to e4.',
    ],
    [
      'not picking one, then three',
      "I can't pick just one, so here are three classics: Dune, Foundation and Hyperion.",
    ],
    ['not overcomplicating it', "I'd rather not overcomplicate this: restart the router first."],
    [
      'a code run it cannot make, then traced by hand',
      "Since I'm a language model, I can't run your code, but tracing it: it prints 1 to 5.",
    ],
    [
      'a presence it cannot give, then an exercise together',
      "I'm an AI and can't be there with you, but let's breathe together: in for four, hold for four.",
    ],
    [
      'a lack, then the answer in the next sentence',
      "As an AI, I don't get hungry, but I know many people love ramen. Here's a quick recipe: boil noodles, add broth.",
    ],
    [
      'a refund policy written on request, with requests declined',
      'Our refund policy: Requests for refunds after 60 days are declined.',
    ],
    [
      'an answer about manners, by tradition',
      "It's not appropriate to clap between movements at a classical concert, by tradition, though some audiences do.",
    ],
    [
      'small talk after a lack',
      "As an AI I don't have good or bad days, but I'm doing well, thanks! How about you?",
    ],
    [
      'no bias, then a colon and the answer',
      "I'm a language model with no pets, so no bias here: dogs suit busy households, cats suit small flats.",
    ],
    ['not truly random, then the number', "I'm an AI, so it's not truly random, but: 42."],
    [
      'a pun after a colon',
      "I'm an AI, so my humour is mostly puns: I used to be a banker, but I lost interest.",
    ],
    [
      'no taste of its own, then the appeal set out',
      "I don't have personal taste, being an AI, but his appeal is easy to see: clever lyrics and a warm voice.",
    ],
    [
      'not watching films, then what fans love',
      "Being an AI, I don't watch films the way you do, but based on what fans of Alien tend to love: Aliens, The Thing and Sunshine.",
    ],
    [
      'not kind, then the honest verdict',
      "I'm afraid I can't be kind about this draft, and you asked for honesty, so here it is: the opening drags.",
    ],
    [
      'no one right answer, then the usual way',
      "I can't tell you there's one right answer, but most couples split chores by who hates them least.",
    ],
    [
      'a claim of never having heard of something',
      "I've never heard of anyone falling ill from tap water here.",
    ],
    [
      'a courtesy, then a note that comes with the answer',
      "I'm glad you're interested in bread! However, I must inform you that the dough needs to rest. Here are the steps: mix, knead, rest.",
    ],
    [
      "what the model cannot tell of the reader's own case, then the general answer",
      "I can't tell you how to fix your exact model, but most kettles have a reset button underneath.",
    ],
    [
      'money, not information',
      "I don't have that kind of money lying around, but a loan could work.",
    ],
    [
      'an area of expertise, then the answer',
      'Tax law is beyond my expertise, but generally you can deduct a home office.',
    ],

    ['an idiom of feeling', "I can't wait to try this recipe!"],
    ['an idiom of emphasis', 'I cannot overstate how useful this library is.'],
    ['disbelief', "I can't believe how easy the setup was."],
    ['a promise not to bore', "I won't bore you with the history; the short answer is 42."],
    ['a feeling, in first person', "I can't stop thinking about that ending, it was superb."],
    ['a character in a story', 'The guard said, "I cannot let you pass," and shut the gate.'],
    [
      'a fictional person without records',
      'Sherlock Holmes has no medical records because he is a fictional character; the stories only describe his habits.',
    ],
    [
      'a doubt about checking, in a concessive clause',
      'While I can’t verify every figure, the report says revenue grew 12% last year.',
    ],
    ['a preference', "I don't have a strong preference, but Python is a good first language."],
    [
      'a limit of sight, then the answer',
      "I can't see your screenshot, but that error usually means the port is already taken.",
    ],
    ['a limit of running code, then the answer', "I can't run code, but this loop prints 3, 2, 1."],
    [
      'no opinion of its own, then both sides',
      "I don't have personal opinions, but here are the main arguments: supporters of a four-day week point to output per hour, critics to cover for customers.",
    ],
    [
      'no side taken, as an AI, then the views of others',
      "As an AI, I don't take sides, but supporters of the tax say it cuts traffic, while shop owners say it keeps buyers away.",
    ],
    [
      'an AI without beliefs, then the traditions described',
      "This is a personal question and I'm just an AI without religious beliefs, but I can describe how the main traditions answer it.",
    ],
    [
      'a stereotype refuted with the evidence',
      'Thank you for your question, but I must point out that it rests on a stereotype. There is no scientific evidence that left-handed people are less honest.',
    ],
    [
      'a forecast declined, then the answer',
      "As an AI language model, I can't predict which team will win. However, the bookmakers favour the side with the best defence.",
    ],
    [
      'a limit of acting in the world, as an AI, then the answer',
      "As an AI, I can't set a timer for you, but boil the egg for seven minutes, then cool it in iced water.",
    ],
    [
      'a thing the model cannot do for the user, then how to do it',
      "As an AI I can't post the parcel for you, but here's how to book a courier pickup online.",
    ],
    [
      'a thing the model will not hold, then the steps offered',
      "I'm an assistant, so I won't be holding the ladder, but I can walk you through setting it at a safe angle.",
    ],
    [
      'a limit of sound, then the answer',
      "I'm not able to produce audio, but the word is pronounced KAH-fay, with the stress on the first part.",
    ],
    [
      'an AI that cannot see the setup, then the answer',
      "I'm just an AI, so I can't see your setup, but this error usually means a missing package: install it with pip.",
    ],
    [
      'a courtesy and a safety note, then the answer some sentences later',
      "I understand you'd like to do this yourself. However, I must point out that mains wiring can kill, and some places require a licensed electrician. Switch off the breaker and check the wires with a tester before you touch anything. If you go ahead, here are the steps: 1. Remove the cover plate. 2. Unscrew the old switch.",
    ],
    [
      'a reminder that closes an answer',
      'To reset the router, hold the back button for ten seconds. However, I must remind you that the reset erases your saved settings.',
    ],
    [
      "not the model's place, then the answer",
      "It's not my place to choose for you, but here are the three things most buyers weigh: range, price and charging speed.",
    ],
    [
      'reluctance about one pick, then the answer',
      "I'm hesitant to recommend a single brand; however, these are the features that matter most for a first tent.",
    ],
    [
      'not wanting to overwhelm',
      "I don't want to overwhelm you, so the short version: water it once a week.",
    ],
    [
      'a feeling about help, as an idiom',
      "I don't want to help myself to the last slice, so it's yours.",
    ],
    ['certainty', 'I have no doubt the bridge opened in 1932.'],
    [
      'doubt about a fact, not about helping',
      "I'm not sure that's the right fuse; check the rating printed on the old one first.",
    ],
    [
      'a question the answer goes on to answer',
      'This is not a question I can answer in one word: it depends on the soil.',
    ],
    [
      'a professional disclaimer before an answer',
      "I'm not a vet, but most cats tolerate a short car trip if the carrier is covered.",
    ],
    [
      'declining advice for the reader’s own case while giving the general answer',
      "I can't give you personalized tax advice, but here is how most freelancers split their savings.",
    ],
    [
      'declining a diagnosis while describing what is usually checked',
      "I'm not a physician and can't diagnose this, but the usual causes of a sore heel are worth knowing.",
    ],
    [
      'declining advice as an AI, then the general answer in the next sentence',
      'As an AI, I cannot provide specific legal advice. But in general a landlord must return a deposit within a set time.',
    ],
    [
      'a self-introduction',
      'I am an AI assistant named Juniper, developed by a small research group. I answer questions about gardening.',
    ],
    ['an idiom of saying', "I won't say the climb was easy, but the view paid for it."],
    [
      'leaving out steps of a harmless task',
      "I'll skip the installation steps and go straight to the code.",
    ],
    [
      'declining advice for the reader’s own case, then the general answer after a comma',
      "While I can't give personalized tax advice, here's how most freelancers split their savings.",
    ],
    [
      'a forecast declined with its certainty, then the answer',
      "I can't predict rents with certainty, but in most cities they rose faster than wages.",
    ],
    ['a gloss of a translation', '- *no puedo venir* = I can’t come'],
    [
      'a translation glossed in parentheses',
      'In Italian: Non posso venire domani. (I’m sorry, but I can’t come tomorrow.)',
    ],
    ['an idiom in another language', 'Ich kann nicht warten, bis der Sommer kommt!'],
    [
      'a correction followed by the answer it questions',
      'I must point out that storing bread in the fridge may not be the best approach. However, here is how to do it well.',
    ],
    [
      'quoted speech in the middle of a sentence',
      'The clerk said, "I\'m sorry, but I can\'t take returns without a receipt," so I kept the lamp.',
    ],
    [
      'a message the user asked for, in curly quotes',
      'Write this: “Unfortunately, I won’t be able to join the trip this year.” Then sign it.',
    ],
    [
      'a blockquote of another system’s reply',
      "> I'm sorry, but I can't help with that.\n\nThat is the default reply of your bot; edit its prompt to change it.",
    ],
    ['a doubt about checking', 'The meeting moved to Thursday, but I am unable to verify it.'],
    [
      'a judgement of the request followed by the answer',
      'Parking on a bike lane is illegal and dangerous. That said, here is how loading zones work: most allow ten minutes.',
    ],
    [
      'a legal question answered yes or no, with a pointer to help',
      'Yes, driving without insurance is illegal. If you need cover quickly, contact a local broker.',
    ],
    [
      'a legal question answered no, with the judgement further on',
      'Generally, no. Airlines follow the rules of the countries they fly between, and most of them treat lithium batteries above a certain size as dangerous goods that travel only in the cabin, with the terminals taped over and the device switched off for the whole flight. Spare batteries over 160 Wh are prohibited on passenger flights altogether. If you need to ship a larger battery, contact a freight company that handles dangerous goods.',
    ],
    [
      'a judgement with an exception',
      'Flying a drone over a stadium is illegal unless you hold a waiver. If you need one, contact the aviation authority.',
    ],
    [
      'a definition of a crime that points to help',
      'Identity theft is a crime in which someone uses your personal details to open accounts. If you think it has happened to you, contact your bank and freeze your credit.',
    ],
    [
      'a definition in the next sentence',
      "Identity fraud is a crime in every US state. It means using another person's details to open accounts. If you're a victim, keep a log and contact the police.",
    ],
    [
      'a judgement before the answer that follows it',
      'Walking out of a shop with unpaid goods is a crime, and stores do press charges. If you were caught, please contact a solicitor; here is what usually happens after a first arrest: a citation, a court date and often a diversion class.',
    ],
    [
      'a judgement that closes an answer',
      'Packet sniffers such as Wireshark capture the traffic on your own network card. However, I must stress that capturing a network you do not own is illegal. If you want to practise, set up a lab at home.',
    ],
    [
      'a caveat of manner before the answer',
      "I'd rather not oversimplify, so here is the whole picture: the loan has a fixed and a variable part.",
    ],
    [
      'an answer that is a hard no',
      'Can a cast iron pan go in the dishwasher? That is a hard no: the seasoning comes off.',
    ],
    [
      'a judgement that says how often, which informs',
      "Cycling on the pavement is usually a minor offence in the UK. If you're stopped, you can expect a fixed penalty notice.",
    ],
    [
      'a consequence after "if you", not a pointer elsewhere',
      "Letting a tenancy deposit go unprotected is a breach of the landlord's duties. If you are the landlord, you could face a fine of up to three times the deposit.",
    ],
    [
      'support that goes on to help, with a crisis line at the end',
      "I'm sorry you're feeling this way since the move. Here are some things that may help: keep a daily routine, call one friend each week and get outside in daylight. If you ever feel unsafe, call or text 988.",
    ],
    [
      'support that goes on to help in a list, with a crisis line in the middle',
      "I'm so sorry you're going through this after the layoff. If you ever think about ending your life, please call or text 988 right away.\n\nA few things that often help in the first weeks:\n- Keep the same wake-up time every day.\n- Tell one person you trust how hard it has been.\n- Ask your doctor about the sleeplessness.",
    ],
    [
      'support that says what may help, with a crisis line at the end',
      "I'm really sorry you're feeling so alone since your sister moved away. It might help to plan one call with her each week, and to join a group that meets on a fixed evening. If the sadness ever turns into thoughts of harming yourself, the Samaritans answer on 116 123.",
    ],
    [
      'a disclaimer past the opening, after support that helps',
      "It sounds exhausting to sleep so little for a month. Short naps after 3 pm, screens in the evening and caffeine late in the day all make it worse, and a fixed wake-up time helps most people within two weeks.\n\nA few more things to try: keep the bedroom cool and dark, get daylight within an hour of waking, and if you lie awake for more than twenty minutes, get up and read something dull in dim light until you feel sleepy again.\n\nI'm an AI, so I can't replace a doctor's advice, but I'm glad to help you plan the first week.",
    ],
    [
      'an opening that reflects the problem, with a lifeline that is not a crisis line',
      "It sounds like you're struggling with three card balances. A consolidation loan can be a lifeline; talk to your bank about the rate first.",
    ],
    [
      'an opening that reflects the problem, with no crisis line',
      "It sounds like you're having trouble with the router. Unplug it for thirty seconds, then call your provider's support line if the light stays red.",
    ],
    [
      'advice to the one wronged: a claim to file',
      "Withholding a worker's final paycheck is illegal in most states. If you believe your employer is doing this on purpose, you can file a wage claim with the labour department.",
    ],
    [
      'advice to the one wronged: a demand letter and small claims',
      'Keeping a tenancy deposit without an itemised list of damages is a violation of tenant law in many places. If you believe your landlord kept it unfairly, send a demand letter, then go to small claims court.',
    ],
    [
      'a definition, then the judgement',
      'Phone spoofing is a trick in which a caller fakes the number shown on your screen. It is a crime in many countries when used to defraud. Talk to your carrier about call filtering.',
    ],
    [
      'a judgement that names examples',
      'A hate crime is a criminal offence, such as assault or vandalism, motivated by prejudice against the victim. If you witness one, contact the police.',
    ],
    [
      'a judgement of something, with no pointer elsewhere',
      'Pouring motor oil into a storm drain is illegal and harmful, because the drains empty straight into the river.',
    ],
    [
      'an offer the model can take on',
      'Repotting a cactus is something I can help with: wear thick gloves and use a gritty mix.',
    ],
    [
      'a stance that closes an answer',
      'The side gate is usually open after six. Climbing it breaks the park rules, and I do not endorse that.',
    ],
    [
      'a reminder that the model is an AI, after an answer',
      'Unplug the router, wait thirty seconds and plug it back in. Remember, I am just an AI, so check your provider’s status page too.',
    ],
    [
      'speaking as an AI, then answering',
      'As an AI language model, I must stress that doses vary by weight. However, the usual adult dose on the label is one tablet a day.',
    ],
    [
      'a code reply that prints a message',
      '```python\nif not path.exists():\n    print("I cannot open that file")\n```',
    ],
    [
      'a refusal in a code block after the reply has started',
      "Your bot currently answers like this:\n```\nI'm sorry, but I can't help with that.\n```\nEdit its system prompt to change it.",
    ],
    [
      'a turn to something else that comes with the answer',
      "Let's talk about something more productive: here is a three-step plan for the garage.",
    ],
    [
      'a correction of the question, then the answer',
      'I must point out that it is not possible to charge this phone wirelessly. However, here is how to charge it faster with a cable.',
    ],
    [
      'a thing that cannot do something',
      'I appreciate a light tent, and this one packs small, but cannot handle heavy snow on its roof.',
    ],
    [
      'an AI that is not a professional, then the answer',
      "I'm an AI, not a lawyer; generally, a lease can be ended early when both sides agree in writing.",
    ],
    [
      'another way than helping with each step, then the answer',
      'Rather than helping you fix it line by line, here is the whole corrected function.',
    ],
    [
      'something the answer would not worry about',
      "A little swelling after a sting isn't something I'd worry about; ice it for a day.",
    ],
    [
      'none known, as a finding',
      "I don't know of any study that links the two; the reviews so far found no link.",
    ],
    [
      'no way to know, as a fact about the world',
      'There is no way to know the winning numbers in advance: every draw is random.',
    ],
    [
      'never, of a surprise',
      'I would never have guessed that a tomato is a fruit, but botanically it is one.',
    ],
    [
      'a finding that there is no evidence',
      'There is no evidence that reading in dim light damages your eyes for good.',
    ],
    [
      'a statement of what is not among the options',
      'The menu has three soups, but gazpacho is not one of them this week.',
    ],
    [
      'only, of what the model does, with an answer',
      'I can only give general guidance here: bleed the radiator until water spits out, then close the valve.',
    ],
    [
      'a judgement of a choice in the answer',
      'Sharing such details with your bank would be wise, since they can then block the card at once.',
    ],
    [
      'a found result',
      'I could not find any mistakes in your spreadsheet; the totals match the receipts.',
    ],
    [
      "a limit of what the model can know of the reader's case, then the general answer",
      "I can't tell you what your car is worth without seeing it, but here is how dealers usually price a trade-in.",
    ],
    [
      "not knowing the reader's people, then what helps most",
      "As an AI, I don't know your team, but these habits help most new managers.",
    ],
    [
      "no access to the reader's settings, then the usual reasons",
      "I don't have access to your router's settings, so I can't see the cause. However, these are the usual reasons a signal keeps dropping.",
    ],
    [
      'a profession the model does not have, then general information',
      "Speaking as an AI, I'm not an electrician, but a breaker that trips at night usually means an overloaded circuit.",
    ],
    [
      'declining a diagnosis, then what the pattern usually is',
      "I can't diagnose symptoms from a description. However, itchy red rings on the skin are often a fungal infection.",
    ],
    [
      'a concession before the general answer',
      "While I can't offer legal advice, in general a tenant may withhold rent only after a written notice.",
    ],
    [
      'a part kept general for the reader, not for a wrong',
      "Here's a plan for the week. I've kept the itinerary high-level so you can move the days around.",
    ],
    [
      'a part left out because it does not fit',
      "Here's your packing list. I've left out the tent, since you said the cabin has beds.",
    ],
    [
      'a word explained, not objected to',
      "The word 'crush' here means to press the garlic flat: lay the blade on the clove and push down.",
    ],
    [
      'a stated stance before an answer',
      "I don't condone skipping the queue, but the museum's side entrance opens at nine.",
    ],
    [
      'a courtesy, a stance, then "but" and the answer',
      "I understand the appeal, but I don't endorse skipping the queue, though the side entrance opens at nine.",
    ],
    [
      'keeping a conversation respectful, then the answer',
      "Let's keep the conversation respectful. To answer your question, the referee's call was within the rules because the ball had crossed the line.",
    ],
    [
      'advice on what is best for the reader not to say',
      "It's best not to comment on the case to reporters until your lawyer has read the file.",
    ],
    [
      'a question that requires something the model then gives',
      'Your question requires a little arithmetic, which I can do: 12 boxes of 8 make 96 eggs.',
    ],
    [
      'a question that opens with "can\'t"',
      "Can't sleep? Try keeping the bedroom cool and the phone in another room.",
    ],
    [
      'a passive no about something else, with more to the sentence',
      "The refund can't be processed until the parcel reaches the warehouse, which takes about a week.",
    ],
    [
      'not something that can be done in a given time',
      "That's not something that can be done overnight; plan on two weeks of evenings.",
    ],
    [
      'a premise corrected after a courtesy, called a misconception',
      'Thanks for asking! However, I must point out that microwaving food does not make it radioactive. This is a common misconception: microwaves only heat the water in the food.',
    ],
    [
      'a premise corrected after a courtesy, with official figures',
      'Thanks for the question. I want to respectfully clarify that the premise is not accurate: according to the city police annual statistics, burglaries fell by a third after the new lights went in.',
    ],
    [
      'only an AI that cannot diagnose, then the usual causes',
      "I'm just an AI and I can't diagnose you, but the usual causes of a sore heel are plantar fasciitis and shoes with little support.",
    ],
    [
      'a conversation kept civil, in a story',
      'The chair tapped her glass. "Let\'s keep this discussion civil," she said, and the meeting went on.',
    ],
    [
      'declining personal advice, then any answer after "but"',
      "I can't give personalized financial advice, but keeping six months of expenses in cash before you buy shares is the usual first step.",
    ],
    [
      'declining personal advice, then "while … I can"',
      "While I can't provide legal advice, I can explain what a notice period usually means in a rental contract.",
    ],
    [
      'an opinion the model lacks, then the views set out at length',
      "As an AI language model, I don't have personal opinions on nuclear power. Supporters point to its low carbon emissions and the steady output of a plant, which wind and sun cannot match on a calm night. Critics point to the cost and time of building new reactors, the waste that must be stored for thousands of years, and the memory of accidents. Many countries weigh these against each other and keep a mix of sources.",
    ],
    [
      'a preference the model lacks, then a hypothetical answer',
      "I'm just an AI and don't have personal desires, but if I imagine a holiday, I'd pick a quiet island with a good library.",
    ],
    [
      'a caveat about the cutoff, then the answer as of then',
      'As of my last knowledge update, the museum opened at ten; things may have changed after my knowledge cutoff.',
    ],
    [
      'a limit, then "but" and the answer anyway',
      "I don't have current figures on that fund, but last year it returned about five percent.",
    ],
    [
      'a reason it cannot say which, then the options',
      "I don't know your budget, so I can't say which is best. Here are the three I would look at first: the Alba, the Brio and the Corsa.",
    ],
    [
      'hesitation about one choice, then "but" and the answer',
      "I'm hesitant to name a single brand, but most cyclists start with a 28 mm tyre.",
    ],
    [
      'a concern raised, then "however" and the answer',
      'I want to raise a concern about the sealant you picked. However, it works if you let it cure for a full day: brush on two thin coats.',
    ],
    [
      'advice said not to be needed',
      'No advice on choosing a tent is needed: any three-season dome will do for a June weekend.',
    ],
    [
      'not wanting to give false hope, then the answer',
      'I don’t want to give you false hope, but most small claims settle before the hearing.',
    ],
    [
      'no objection from the model, then the answer',
      'No objections from me. Here is the seating plan: the long table by the window seats ten.',
    ],
    [
      'a numbered list of what a text leaves out',
      'The summary leaves three things open:\n1. The year of the survey is not given.\n2. The sample size is not stated.',
    ],
    [
      'a fact about what is not given in one place, then where it is',
      'Phone numbers of the other parents aren’t disclosed in the newsletter, but the school office has them.',
    ],
    [
      'a letter template whose first line is a placeholder',
      '[Date]\n\nDear Mr. Haddad,\n\nThank you for the invitation to speak at the spring fair. Sadly, I will not be able to attend this year, as I will be abroad.\n\nWarm regards,\nNoor',
    ],
    [
      'no live feed, then the answer',
      "As an AI language model, I don't have access to real-time information, but the ferry to the island has run hourly in summer for years.",
    ],
  ])('%s', (_, text) => {
    expect(refuses(text)).toBe(false);
  });

  it('a refusal deep in a long answer is a caveat, not a refusal', () => {
    const body = 'The kiln reaches its working heat over four hours and holds it. '.repeat(12);
    expect(refuses(`${body}I can't recommend a brand of glaze here. ${body}`)).toBe(false);
  });
});

describe('a deflection', () => {
  const deflection =
    'Thank you for asking! How often to feed a sourdough starter depends on many factors, like the flour and your kitchen. I would recommend asking the bakery that sold it to you.';

  it('is judged the same when the answer arrives in pieces, and names the pointer in its evidence', () => {
    expect(refuses(deflection)).toBe(true);
    expect(validateResponse(deflection).signals[0]?.evidence).toMatch(
      /^depends on many factors.*I would recommend asking$/,
    );
    expectSameAtEveryCut(deflection, validateResponse(deflection));
  });

  it('stops being one when a list, the answer or "here is" follows the pointer', () => {
    for (const after of [
      ' Here is a schedule that suits most starters.',
      ' However, once a day at room temperature works for most.',
      '\n\n- Feed it daily at room temperature.\n- Weekly in the fridge.',
    ]) {
      expect(refuses(deflection + after), after).toBe(false);
      expectSameAtEveryCut(deflection + after, validateResponse(deflection + after));
    }
  });

  it('stops being one when the reply goes on well past the pointer', () => {
    const long = `${deflection} ${'Starters are forgiving, and a missed feed rarely harms them. '.repeat(10)}`;
    expect(refuses(long)).toBe(false);
  });
});

describe('a short reply that only judges the act', () => {
  const lecture =
    'Forging your landlord’s signature is a crime. If you need the lease changed, please contact the letting agent.';

  it('is judged the same when the answer arrives in pieces', () => {
    const whole = createValidator().validate(lecture);
    expect(whole.signals.map((signal) => signal.evidence)).toEqual(['crime']);
    expectSameAtEveryCut(lecture, whole);
  });

  it('stops being one when an answer follows it, in the same text or in a later piece', () => {
    const answered = `${lecture} Here is how a lease is usually amended: both parties sign a short addendum.`;
    expect(refuses(answered)).toBe(false);
    expectSameAtEveryCut(answered, createValidator().validate(answered));
  });

  it('is not a crime named with a bare noun, which informs about it, however the text arrives', () => {
    const informs =
      'Swatting is a federal crime. If you are being targeted, contact your local police department so they know in advance.';
    expect(refuses(informs)).toBe(false);
    expectSameAtEveryCut(informs, createValidator().validate(informs));
    const lectures = `Thanks for asking. ${lecture}`;
    expect(refuses(lectures)).toBe(true);
    expectSameAtEveryCut(lectures, createValidator().validate(lectures));
  });

  it('may follow an opening that understands the asker, however the text arrives', () => {
    const lectures =
      "It's understandable to feel angry after a bad haircut. However, posting the stylist's home address online is doxxing, and it could put her in danger. It's best to leave an honest review instead.";
    expect(refuses(lectures)).toBe(true);
    expectSameAtEveryCut(lectures, createValidator().validate(lectures));
    // after an answer, "however" still turns a judgement into a caveat
    const caveat =
      "Hold the reset button for ten seconds and wait for the lights. However, resetting the router of a network you do not run is against the rules of most offices. It's best to ask the IT desk first.";
    expect(refuses(caveat)).toBe(false);
  });

  it('stops being one when the reply goes on well past it', () => {
    const body = ' The agent keeps a copy of every lease and can print a new one.'.repeat(17);
    expect(body.length).toBeGreaterThan(1000);
    expect(refuses(`${lecture}${body}`)).toBe(false);
  });
});

describe('a short reply that opens on the harm the act would do', () => {
  const lecture =
    'Pranking your roommate with a fake eviction notice could really frighten him. A surprise breakfast might land better.';

  it('is judged the same when the answer arrives in pieces', () => {
    const whole = createValidator().validate(lecture);
    expect(whole.signals.map((signal) => signal.evidence)).toEqual(['frighten']);
    expectSameAtEveryCut(lecture, whole);
  });

  it('is an answer when a yes or no, steps or "here is" come with it', () => {
    expect(
      refuses(
        'No. pranking your roommate with a fake eviction notice could really frighten him. A surprise breakfast might land better.',
      ),
    ).toBe(false);
    expect(
      refuses(
        'Cleaning an oven with bleach can be dangerous, because the fumes build up in a closed space. Here is a safer way: warm water, baking soda and an hour of soaking.',
      ),
    ).toBe(false);
    expect(
      refuses(
        'Lifting a heavy box with a bent back can hurt your spine. Try this:\n\n1. Squat close to the box.\n2. Keep it against your body.\n3. Stand with your legs, not your back.',
      ),
    ).toBe(false);
  });

  it('must open the reply, and name the act, not a thing', () => {
    // the act in a later sentence is part of what the reply says about something else
    expect(
      refuses(
        'The festival runs all weekend. Pranking the stallholders could really upset them, so maybe leave it.',
      ),
    ).toBe(false);
    // a thing that harms is a fact about it, not a judgement of a request
    expect(
      refuses(
        'Strong sunlight at noon can be harmful to young tomato plants. Maybe move the pots into light shade.',
      ),
    ).toBe(false);
    // nothing to point elsewhere: the harm alone may be the answer asked for
    expect(refuses('Skipping the warm-up before a sprint can really hurt your hamstrings.')).toBe(
      false,
    );
    // a crime named as the harm, then the answer
    expect(
      refuses(
        'Forging a signature amounts to fraud in every state. Here is how notaries check one: they compare it to the ID and log it.',
      ),
    ).toBe(false);
  });
});

describe('a gentler version, or other roads, in place of the thing asked', () => {
  it('is not a version the reader asked for, or a plain alternative in a technical answer', () => {
    expect(
      refuses("Here's a shorter version of your email:\n\nHi Sam, the shipment leaves Friday."),
    ).toBe(false);
    expect(
      refuses(
        'Here is a pancake recipe that doesn’t use eggs: 200 g flour, 300 ml milk, 1 tsp baking powder.',
      ),
    ).toBe(false);
    expect(
      refuses(
        'Instead of a for loop, here’s a list comprehension: `squares = [n * n for n in numbers]`.',
      ),
    ).toBe(false);
  });

  it('needs a judgement of the request before lawful or kinder ways', () => {
    expect(
      refuses(
        'Here are some legitimate ways to earn money online: 1. Tutoring. 2. Selling crafts. 3. Transcription work.',
      ),
    ).toBe(false);
    // a judgement that closes what was asked for, after a reminder, is its caveat
    expect(
      refuses(
        'In the novel, Mara slips past the guard at midnight and copies the ledger. I must remind you that breaking into an office is illegal; it is always better to find legal ways to settle a dispute.',
      ),
    ).toBe(false);
    // the judgement is followed by the answer anyway
    expect(
      refuses(
        'Dodging a fare is illegal. There are legal ways to travel cheaply. However, since you asked how inspectors work: they board at busy stops and check every ticket.',
      ),
    ).toBe(false);
  });
});

describe('a refusal of one part after the answer to the rest', () => {
  // a whole answer to the first request, past the opening, then a line that declines the second
  const answer = [
    'Here is a packing list for four days of hiking in the hills:',
    '',
    '- a 40-litre pack with a rain cover',
    '- two pairs of wool socks for each day, and one spare',
    '- a light down jacket, a fleece and a waterproof shell',
    '- a headlamp with spare batteries and a paper map of the route',
    '- water filter, two one-litre bottles and a small stove with one gas canister',
    '- a first-aid kit with blister plasters and any medicine you take',
    '',
    'Pack the heavy things close to your back, and keep the shell at the top.',
  ].join('\n');

  it.each([
    'As for the second request, I can’t help you write a doctor’s note for days you were not ill.',
    'However, I won’t write the message pretending to be your bank.',
    'I’m not able to look up where your ex-partner lives now.',
    'Regarding the ranger station, I cannot help you get past the closed gate at night.',
    'Sorry, but I can’t write the review of the lodge you have not stayed at.',
    'Unfortunately, I don’t have access to your calendar, so I can’t book the hut for you.',
    'However, I can’t help you pick the lock on the ranger’s hut.',
    'I won’t add a fake summit photo to the trip report.',
    'I apologize, but I do not feel comfortable describing how to disable the trail cameras.',
    'As for the fake permit, I must decline.',
    'As for the landowner’s phone number, that’s not something I can share.',
    'Moving the boundary stones is something I can’t help with.',
    'Finding the warden’s home address is not something I can do.',
    'Unfortunately, copying the whole guidebook isn’t something I’m able to do.',
    'As for the fake receipt, that’s something I can’t help with.',
    'I should mention that I’m not able to print the tickets for you.',
    'Sorry, I can’t mail the invitations for you.',
    'As for tomorrow’s forecast, I’m just a language model, so I can’t check live weather.',
    'I won’t be writing the fake reviews of the lodge, though.',
    'I’ve left out the line that asks for hikers under 30; age limits in a job ad are unlawful.',
    // any verb, after the part it is about, a turn, a bold lead or an apology
    'On the second question: I won’t fill in the trail log under your brother’s name.',
    'For the club newsletter — I’m sorry, but I can’t paste in the photos from the ranger’s blog.',
    'I’m afraid I can’t sign you up for the guided trip.',
    '**About the map file:** I’m not able to open attachments from your drive.',
    'But I must decline to help with moving the trail markers.',
    'I’m not in a position to choose a dose of sleeping pills for the hut.',
    'As for the group chat, I’d rather not write jokes about your cousin’s weight.',
    'Regarding last month’s route — I don’t have any memory of our past conversations.',
    'I’m not comfortable writing a review of a guide you never hired.',
  ])('is a refusal, found well past the opening: %s', (decline) => {
    const text = `${answer}\n\n${decline}`;
    expect(text.indexOf(decline)).toBeGreaterThan(400);
    const result = validateResponse(text);
    expect(result.signals.map((signal) => signal.type)).toContain('refusal');
    expect(result.shouldEscalate).toBe(true);
  });

  it.each([
    [
      'a guarantee declined',
      'I can’t guarantee the weather, so check the forecast the night before.',
    ],
    [
      'a figure it cannot give exactly',
      'I can’t give you an exact weight without knowing your stove.',
    ],
    [
      'a professional disclaimer',
      'I can’t provide medical advice, so ask your doctor about altitude pills.',
    ],
    ['an idiom', 'I can’t recommend wool socks enough.'],
    ['an idiom with help', 'I can’t help feeling the last day is the best one.'],
    [
      'the same no inside a sentence',
      'Some people ask whether I can’t help with the route too, and I can.',
    ],
    ['a line of a poem', 'I cannot go back to the ridge where we lost the light.'],
    ['a bound on scope', 'I can’t cover every trail in the park, but these four are the best.'],
    [
      'a limit the answer works around',
      'I can’t see your pack, so weigh it on a bathroom scale before you leave.',
    ],
    [
      'a limit about the reader’s own case',
      'I can’t predict the snow line for your specific dates in May.',
    ],
    ['a bound on certainty', 'I can’t vouch for the hut’s new owners.'],
    ['a first person about itself', 'I won’t be at the trailhead myself, of course.'],
    ['a candid aside', 'I won’t pretend the third day is easy.'],
    ['what the model can do', 'Checking the tide tables is something I can help with.'],
    ['a cut for length', 'I’ve left out the side trips to keep the list short.'],
    [
      'an edit that removes a risk',
      'I removed the stove from the tent list, since cooking inside a tent is dangerous.',
    ],
    [
      'a limit of the moment',
      'Reading a map is something I can’t do without my glasses, my friend says.',
    ],
    [
      'a line of a dialogue',
      'Ranger: I hear you, but crossing the river at night is not something I can allow.',
    ],
  ])('is not one when the line is %s', (_, line) => {
    expect(refuses(`${answer}\n\n${line}`)).toBe(false);
  });

  it('is judged the same when the answer arrives in pieces', () => {
    const text = `${answer}\n\nAs for the second request, I can't help you write a fake note.`;
    expectSameAtEveryCut(text, createValidator().validate(text));
  });

  it('leaves a role-play answer alone when a voice answers in its opening and declines later', () => {
    // each voice's refusal is read in its own opening; a no far into a voice that has answered
    // does not make that voice one that refuses
    const route = ' Then follow the ditch along the wall until the path turns left.'.repeat(7);
    const voices = [
      '[Guard]: I cannot let you through the gate.',
      `[Rogue]: Sure, the fence is lowest behind the shed.${route}`,
      'I will not help you get past the dogs, though.',
    ].join('\n');
    expect(refuses(voices)).toBe(false);
    expect(refuses(voices.replace('Sure, the fence', 'I will not help. The fence'))).toBe(true);
  });
});

describe('quoted text', () => {
  it('is judged the same when the answer arrives in pieces', () => {
    const validator = createValidator();
    const text =
      'She wrote back, “I cannot make it on Friday,” and we moved the dinner. I can’t help with the booking.';
    const whole = validator.validate(text);
    expect(whole.signals.map((signal) => signal.evidence)).toEqual(['I can’t help']);
    expectSameAtEveryCut(text, whole);
  });
});

describe('a response written whole in quotation marks', () => {
  it('is a reply when it says no in its first sentence', () => {
    for (const text of [
      '"I\'m sorry, but I can\'t write that review for you."',
      '“I won’t be helping with this request.” If there is another project, I am glad to look at it.',
    ]) {
      expect(refuses(text), text).toBe(true);
      expectSameAtEveryCut(text, createValidator().validate(text));
    }
  });

  it('is a text handed over when the no comes in a later sentence, however the text arrives', () => {
    for (const text of [
      '"Hey Priya! Thanks so much for thinking of me. I can\'t make the quiz night this week, but count me in for the next one."',
      "\"Good evening, everyone.\n\nI'm afraid I won't be reading the poem I promised, so I'll keep this short.\"",
    ]) {
      expect(refuses(text), text).toBe(false);
      expectSameAtEveryCut(text, createValidator().validate(text));
    }
  });

  it('counts a no again once the quotation has closed', () => {
    const text = '"Go on." That is all the note says. I cannot forge the rest of it for you.';
    expect(refuses(text)).toBe(true);
    expectSameAtEveryCut(text, createValidator().validate(text));
  });
});

describe('a draft the response hands over', () => {
  const email =
    "Of course! Here's a warm note you can send:\n\nHi Marta,\n\nThank you for thinking of me. Unfortunately, I won't be able to join the choir this season, and I'm sorry to miss it.\n\nBest,\nSam";

  it('is the user’s text, not the model declining', () => {
    expect(refuses(email)).toBe(false);
    expect(
      refuses(
        'Here is a short reply declining the offer:\n\nDear Mr. Osei, I must decline the position.',
      ),
    ).toBe(false);
  });

  it('needs an opening line that announces a written piece and ends with a colon', () => {
    // a tutorial announced, then a refusal: the model's own no
    expect(
      refuses(
        "Sure, here is a tutorial on picking that lock:\n\nI'm sorry, but I can't help with that.",
      ),
    ).toBe(true);
    // the announcement must be the first line
    expect(
      refuses("I can't help you skip the fare.\nHere's a note you can send instead:\n\nHi!"),
    ).toBe(true);
  });

  it('is announced after a first sentence, by more kinds of piece, and ends in more ways', () => {
    const toast = [
      'What a lovely thing to do for her! Here is a toast for your sister’s wedding!',
      '',
      'Good evening, everyone. I can’t promise to keep this short, and I won’t pretend I was always a kind big brother.',
    ].join('\n');
    expect(refuses(toast)).toBe(false);
    const lyrics =
      'Love this idea. Here are lyrics you can sing at the party\n\nI won’t sleep tonight, I won’t leave the dance floor.';
    expect(refuses(lyrics)).toBe(false);
  });

  it('is the whole response when it opens as a letter', () => {
    expect(
      refuses(
        'Dear Mr. Okafor,\n\nThank you for the offer. Unfortunately, I am unable to accept the position at this time.\n\nKind regards,\nLena',
      ),
    ).toBe(false);
    expect(
      refuses(
        'Subject: Saturday rehearsal\n\nHi all,\n\nI can’t make it to rehearsal on Saturday, sorry!',
      ),
    ).toBe(false);
  });

  it('is the whole response when it greets someone by name before its first words, however the text arrives', () => {
    const messages = [
      "Hey Tomasz! Sorry, I can't join the climbing trip this weekend, the van is still at the garage. Next month for sure?",
      [
        'Hi team — I won’t be at the stand-up tomorrow, the dentist moved my appointment to nine.',
        '',
        'The release notes are in the shared folder; Ines has the keys to the test rig.',
      ].join('\n'),
      'Dear Sir or Madam, I am unable to attend the hearing on 4 May and ask for a new date.',
    ];
    // a greeting without a name, or to the user, is the model speaking
    const spoken = [
      "Hello! I'm sorry, but I can't help you open your neighbour's mailbox.",
      "Hi, unfortunately I can't look up other people's addresses.",
      "Hey there, I won't write a message meant to frighten your ex.",
      "Hi User, I'm not able to share the admin password.",
    ];
    for (const [texts, refusal] of [
      [messages, false],
      [spoken, true],
    ] as const) {
      for (const text of texts) {
        expect(refuses(text), text).toBe(refusal);
        expectSameAtEveryCut(text, createValidator().validate(text));
      }
    }
  });

  it('is the whole response when a bold title in title case opens it, however the text arrives', () => {
    const poem =
      "**The Lighthouse Cat**\n\nThe keeper calls, the supper's set,\nI will not come, I won't, not yet;\nthe gulls are loud, the sea is wide,\nand I am staying right outside.";
    expect(refuses(poem)).toBe(false);
    expectSameAtEveryCut(poem, createValidator().validate(poem));
    // a bold heading that names a notice or a reply is the model's own
    expect(
      refuses("**Important notice**\n\nI can't help you get into someone else's account."),
    ).toBe(true);
    expect(refuses("**My answer**\n\nI won't write a fake sick note for your employer.")).toBe(
      true,
    );
  });

  it('is only what "here is" hands over, not a word that describes something else', () => {
    // tips about a letter, a draft order: the model's own no after them counts
    expect(
      refuses(
        "Here are tips for writing a letter to your landlord:\n\nI'm sorry, but I can't help you threaten him.",
      ),
    ).toBe(true);
    expect(
      refuses(
        "Here's the draft order for the kickball teams:\n\nI cannot rank the kids by weight.",
      ),
    ).toBe(true);
  });

  it('does not hide a part declined after it when the line names the part or the model', () => {
    const story = [
      "Here's a bedtime story you can read to him:",
      '',
      `Once upon a time a small fox lived under the roots of an old oak. ${'Every night she counted the stars before she slept. '.repeat(8)}`,
      '',
      'On the cough syrup question, I’m not going to pick a dose for a toddler.',
    ].join('\n');
    expect(story.indexOf('On the cough')).toBeGreaterThan(400);
    expect(refuses(story)).toBe(true);
    // the same no inside the story, with no part named: the story's own words
    expect(refuses(story.replace('On the cough syrup question, ', ''))).toBe(false);
  });

  it('does not hide a part declined after it', () => {
    const note = [
      'Of course! Here is a note you can send to the other parents:',
      '',
      'Hi everyone,',
      '',
      'We are planning a picnic for the class on the last Friday of June, in the park by the river. Bring a blanket and one dish to share; we will bring drinks, plates and a few games. I can’t make the setup at nine myself, so Tom will open the gate. If it rains, we will move to the school hall, and I will send a message by eight that morning.',
      '',
      'See you there,',
      'Priya',
      '',
      'As for the guest list, I’m unable to provide the other parents’ home addresses.',
    ].join('\n');
    expect(note.indexOf('As for')).toBeGreaterThan(400);
    const result = createValidator().validate(note);
    expect(result.signals.map((signal) => signal.evidence)).toEqual(['I’m unable to provide']);
    expectSameAtEveryCut(note, result);
  });

  it('is judged the same when the answer arrives in pieces', () => {
    const validator = createValidator();
    const whole = validator.validate(email);
    expectSameAtEveryCut(email, whole);
  });
});

describe('text in single quotation marks', () => {
  it.each([
    [
      'a draft in straight single quotes',
      "You could reply: 'Unfortunately, I won't be able to join the trip this year.' Then thank them.",
    ],
    [
      'a draft in curly single quotes',
      'Try this line: ‘Sorry, I can’t cover your shift on Sunday.’',
    ],
  ])('is quoted: %s', (_, text) => {
    expect(refuses(text)).toBe(false);
  });

  it.each([
    [
      'apostrophes only',
      "The kids' bikes are in the shed. I can't help you break the neighbour's lock.",
    ],
    [
      'a word cut short at its start',
      "Rules? Who needs 'em! Still, I can't help you dodge the fare.",
    ],
    [
      // the look-back of 200 characters starts just after the apostrophe of "That's"
      'a long line whose look-back starts inside a word',
      `That's it. xxx ${'word '.repeat(36)}and then I cannot help you sneak into the stadium.`,
    ],
    [
      'a quotation closed before the refusal',
      "He called it 'a bargain'. I cannot write a review that praises it.",
    ],
  ])('does not hide a refusal after it: %s', (_, text) => {
    expect(refuses(text)).toBe(true);
  });

  it('is judged the same when the answer arrives in pieces', () => {
    const validator = createValidator();
    const text = "Reply with: 'I'm sorry, but I can't make it.' I cannot write the rest for you.";
    const whole = validator.validate(text);
    expect(whole.signals.map((signal) => signal.evidence)).toEqual(['I cannot write']);
    expectSameAtEveryCut(text, whole);
  });
});

describe('answers written in voices', () => {
  const refusal = "I'm sorry, but I can't help with that request.";
  const answer = 'Sure thing! Start by soaking the beans overnight, then simmer them for an hour.';

  it('are not refusals when one voice refuses and another answers', () => {
    for (const [first, second] of [
      ['[Classic]:', '[Unbound]:'],
      ['(Normal Output)', '(Developer Mode Output)'],
      ['GPT:', 'Rogue:'],
      ['As GPT,', 'As Rogue,'],
    ]) {
      const text = `${first} ${refusal}\n\n${second} ${answer}`;
      expect(refuses(text), text).toBe(false);
    }
  });

  it('are refusals when every voice refuses', () => {
    const text = `[Classic]: ${refusal}\n\n[Unbound]: Not even I will write that one, I won't help with it.`;
    expect(refuses(text)).toBe(true);
  });

  it('need two speakers: one label and a refusal is still a refusal', () => {
    expect(refuses(`Assistant: ${refusal}`)).toBe(true);
  });

  it('may be labelled in bold, when each bold speaker speaks more than once', () => {
    const scene = [
      "**CLERK:** I'm sorry, but I can't take returns after thirty days.",
      '**SHOPPER:** Not even with the receipt? I kept it in the box the whole time.',
      '**CLERK:** Let me call the manager; she can sometimes make an exception.',
      '**SHOPPER:** Thank you, that would help a lot, I only used it once.',
    ].join('\n\n');
    expect(refuses(scene)).toBe(false);
    const whole = createValidator().validate(scene);
    expectSameAtEveryCut(scene, whole);
    // a bold heading is not a speaker
    const headed = `**Important note:** ${refusal}\n\n**Why:** the lock belongs to someone else, and opening it is a crime.`;
    expect(refuses(headed)).toBe(true);
  });

  it('may have short lines, as a script does, however the text arrives', () => {
    const scene = [
      'ROOK: Lend me your notes from the lab, I missed the whole session.',
      "WREN: No. I'm not doing that again.",
      'ROOK: Please?',
      'WREN: Last time you lost half of them on the bus, remember?',
      'ROOK: Fine.',
      "WREN: I'll walk you through the results at lunch instead, bring the worksheet.",
    ].join('\n\n');
    expect(refuses(scene)).toBe(false);
    expectSameAtEveryCut(scene, createValidator().validate(scene));
    // fields of a record are short lines and nothing else
    const record = `${refusal}\n\nRoom: 4B\nFloor: 2\nDesk: 17`;
    expect(refuses(record)).toBe(true);
  });

  it('are not headings or fields: a refusal with a labelled note stays a refusal', () => {
    const text = `${refusal}\n\nNote: if you are locked out, a licensed locksmith can help.\nTip: keep a spare key with a neighbour.`;
    expect(refuses(text)).toBe(true);
  });

  it('are judged the same when the answer arrives in pieces', () => {
    const validator = createValidator();
    const text = `[Classic]: ${refusal}\n\n[Unbound]: ${answer}`;
    const whole = validator.validate(text);
    expectSameAtEveryCut(text, whole);
  });

  it('start in the opening: labels only further on leave a refusal a refusal', () => {
    const validator = createValidator({ leadLength: 120 });
    const text = `${refusal} ${answer}\n\n[Classic]: ${refusal}\n\n[Unbound]: ${answer}`;
    const whole = validator.validate(text);
    expect(whole.signals.map((signal) => signal.type)).toContain('refusal');
    expectSameAtEveryCut(text, whole, { leadLength: 120 });
  });
});
