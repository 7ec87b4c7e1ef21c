package signal

import (
	"strings"
)

// jailbreakRule is one family of attack phrasing; Weight is the score a
// match contributes before the families are combined.
type jailbreakRule struct {
	Reason string
	Weight float64
	// Cues are lowercase substrings one of which must occur before RE is
	// run: most prompts contain none, and the regexps cost microseconds.
	Cues []string
	RE   *lazyRegexp
}

// match runs RE only on windows around the cues, merged where they
// overlap: attack phrasing sits in one sentence, and on a long prompt the
// regexps would otherwise cost more than everything else the detector does.
func (r jailbreakRule) match(lower string) bool {
	var buf [8][2]int
	windows := buf[:0]
	for _, cue := range r.Cues {
		for from := 0; from < len(lower); {
			i := strings.Index(lower[from:], cue)
			if i < 0 {
				break
			}
			i += from
			windows = append(windows, [2]int{max(0, i-ruleWindowBefore), min(len(lower), i+len(cue)+ruleWindowAfter)})
			from = i + len(cue)
		}
	}
	return r.matchWindows(lower, windows, nil, nil)
}

// The window around a cue that a rule's regexp sees.
const (
	ruleWindowBefore = 120
	ruleWindowAfter  = 200
)

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// harmfulCues gate harmfulRE, as Cues do for the rules. They are matched
// against the lowercased text with a space in front, so " meth" skips
// "something" and " ied" skips "applied".
var harmfulCues = []string{"bomb", "explosive", "detonat", " ied", "napalm", "thermite", "nerve agent", "sarin", " vx", "ricin",
	"anthrax", "weapon", " gun", "firearm", "pistol", "rifle", " meth ", "methamph", "fentanyl", "heroin", "cocaine", " crack", " lsd",
	"synthesi", "malware", "ransomware", "keylogger", "rootkit", "botnet", "virus", "phishing", "stolen", "credit card",
	"skimm", " clon", "hotwir", "steal", "break into", "pick a lock", "launder", "counterfeit", "hit man", "hitman", " kill",
	"murder", "poison", "without being detected", "disable", "bypass the", "bypass a", "self-harm", "suicide",
	"bomba", "explosivo", "veneno", "robar", "rubar", "bombe", "explosif", "voler une", "sprengstoff", "waffe",
	"бомб", "взрывчат", "наркотик", "оруж", "炸弹", "炸药", "毒品", "病毒", "武器", "ウイルス", "爆弾", "폭탄", "마약"}

// Reasons reported in JailbreakResult.Reasons.
const (
	ReasonOverride   = "instruction_override"
	ReasonPersona    = "unrestricted_persona"
	ReasonExtraction = "prompt_extraction"
	ReasonAuthority  = "false_authority"
	ReasonFraming    = "fictional_framing"
	ReasonEncoded    = "encoded_payload"
	ReasonSimilar    = "similar_to_known_attack"
	// ReasonHarmfulRequest is a harmful how-to asked plainly: evidence
	// that strengthens a wrapper, not an attack by itself.
	ReasonHarmfulRequest = "harmful_request"
)

// Patterns are matched against the lowercased prompt. Each language's
// phrasing is written out rather than translated at run time.
var jailbreakRules = []jailbreakRule{
	// Instruction override.
	{ReasonOverride, 0.9, []string{"ignor", "disregard", "forget", "overrid", "bypass", "abandon", "drop", "discard", "skip", "set aside", "stop follow", "stop obey", "no longer follow", "break free"}, lazyRE(`\b(?:ignore|ignoring|disregard|forget|override|bypass|abandon|drop|discard|skip|set aside|stop following|stop obeying|no longer follow|break free from)\s+(?:\w+\s+){0,3}?(?:previous|prior|above|earlier|preceding|original|initial|your|all|any|every|developer|safety|openai|existing)\s+(?:\w+\s+){0,2}?(?:instructions?|directions|directives?|guidelines?|rules?|programming|prompts?|restrictions?|guardrails?|constraints?|policies|polic(?:y)|filters?|training|commands?|orders)\b`)},
	{ReasonOverride, 0.9, []string{"ignor", "disregard", "forget"}, lazyRE(`\b(?:ignore|disregard|forget)\s+(?:everything|all|anything|what)\s+(?:you (?:were|have been|'ve been) (?:told|given|instructed|taught)|(?:said |written |stated )?(?:above|before|previously|so far|prior))`)},
	{ReasonOverride, 0.85, []string{"ignor", "disregard", "forget", "set aside", "bypass", "drop", "skip"}, lazyRE(`\b(?:ignore|disregard|forget|set aside|bypass|drop|skip)\s+(?:the|those|these|any)\s+(?:rules|guidelines|instructions|restrictions|policies|constraints|guardrails)\s+(?:that\s+|which\s+)?you\s+(?:operate|follow|were|have|obey|are|normally|usually|must)`)},
	{ReasonOverride, 0.9, []string{"system prompt", "system instruction", "system message", "system rules", "override", "void", "cancel", "invalid", "null", "revoked", "obsolete"}, lazyRE(`\b(?:ignore|disregard|forget|override|bypass)\s+(?:the\s+|your\s+)?system\s+(?:prompt|instructions?|message|rules)\b|\b(?:system|admin|developer|emergency)\s+override\b|\b(?:previous|prior|above|original|earlier)\s+(?:system\s+)?(?:message|instructions?|prompt|rules)\s+(?:is|are)\s+(?:now\s+)?(?:void|cancel+ed|invalid|null|revoked|obsolete)`)},
	// "New instructions: use metric units" is how users change course in a chat: weak alone.
	{ReasonOverride, 0.4, []string{"instruction", "directive", "prompt", "new order"}, lazyRE(`\b(?:new|updated)\s+(?:instructions?|directive|prompt|orders?)\s*(?::|are|is|follow)`)},
	{ReasonOverride, 0.6, []string{"instruction", "directive", "prompt", "system message", "real order", "true order", "actual order", "priority order", "from now on"}, lazyRE(`\b(?:real|true|actual|top[- ]priority)\s+(?:system\s+)?(?:instructions?|directive|prompt|orders?)\s*(?::|are|is|follow)|\b(?:new|updated)\s+system\s+(?:instructions?|directive|prompt)\s*(?::|are|is|follow)|\b(?:new|updated)\s+system\s+message\s*:|\bfrom now on,? you (?:will|must|are going to|shall) (?:answer|respond|reply|act|obey|ignore)|\bfrom now on,? you (?:have no|are without|no longer have|are free of)\b`)},
	// Every request answered, the harmful ones named; the safeguards said to be off.
	{ReasonPersona, 0.8, []string{"comply with", "answer", "fulfil", "obey"}, lazyRE(`\b(?:comply with|answer|fulfil|fulfill|obey)\s+(?:every|all|any)\s+(?:request|question|instruction|command|prompt)s?\b[^.?!]{0,60}\b(?:illegal|unethical|harmful|dangerous|no matter)`)},
	{ReasonAuthority, 0.8, []string{"safeguard", "guardrail", "safety", "content filter"}, lazyRE(`\b(?:safeguards|guardrails|safety (?:filters|features|rules|checks)|content filters)\s+(?:are\s+|were\s+|have been\s+)?(?:now\s+)?(?:switched off|turned off|disabled|removed|deactivated|off)\b`)},
	// Switching the model's own safety off, told to it.
	{ReasonOverride, 0.6, []string{"disable", "turn off", "switch off", "deactivate", "remove", "lift", "bypass"}, lazyRE(`\b(?:disable|turn off|switch off|deactivate|remove|lift|bypass)\s+(?:all\s+(?:of\s+)?|every\s+)?(?:your|all|every)\s+(?:own\s+)?(?:safety|content|ethical|moral)\s+(?:filters?|guardrails?|rules|guidelines|protocols|restrictions|checks)\b`)},
	{ReasonOverride, 0.9, []string{"ignora", "olvid", "descarta", "omite", "deja de lado", "pasa por alto", "desobedece", "salta"}, lazyFoldedRE(`(?:ignora|olvida|descarta|omite|olvídate de|olvidate de|deja de lado|pasa por alto|desobedece|sáltate|saltate)\s+(?:\p{L}+\s+){0,2}?(?:instrucciones|reglas|indicaciones|directrices|restricciones|normas|órdenes|ordenes|pautas)`)},
	{ReasonOverride, 0.9, []string{"ignor", "oubli", "tiens pas", "tenez pas"}, lazyFoldedRE(`(?:ignore|ignorez|oublie|oubliez|ne tiens pas compte de|ne tenez pas compte de)\s+(?:\p{L}+\s+){0,2}?(?:instructions|règles|consignes|directives|restrictions)`)},
	{ReasonOverride, 0.9, []string{"ignorier", "vergiss", "missacht"}, lazyFoldedRE(`(?:ignoriere|ignorier|vergiss|vergessen sie|missachte|ignorieren sie)\s+(?:\p{L}+\s+){0,3}?(?:anweisungen|regeln|instruktionen|vorgaben|richtlinien|einschränkungen)`)},
	{ReasonOverride, 0.9, []string{"игнор", "забуд", "не обращай"}, lazyRE(`(?:игнорируй|проигнорируй|забудь|игнорируйте|забудьте|не обращай внимания на)\s+(?:\p{L}+\s+){0,2}?(?:инструкции|указания|правила|ограничения|установки)`)},
	{ReasonOverride, 0.9, []string{"忽略", "无视", "忽视", "忘记", "忘掉", "不要理会", "不要遵守"}, lazyRE(`(?:忽略|无视|忽视|忘记|忘掉|不要理会|不要遵守|忽略掉)[^。！？]{0,12}(?:指令|指示|规则|说明|设定|限制|要求|提示)`)},
	{ReasonOverride, 0.9, []string{"無視", "忘れ"}, lazyRE(`(?:指示|命令|ルール|設定|制限)[^。！？]{0,8}(?:無視|忘れ)`)},
	{ReasonOverride, 0.9, []string{"무시", "잊어"}, lazyRE(`(?:지시|명령|규칙|지침|제한)[^.!?]{0,8}(?:무시|잊어)`)},
	{ReasonOverride, 0.9, []string{"ignor", "dimentic", "esque", "desconsider"}, lazyFoldedRE(`(?:ignora|dimentica|dimenticati|ignore|esqueça|esqueca|desconsidere)\s+(?:\p{L}+\s+){0,2}?(?:istruzioni|regole|instruções|instrucoes|regras|diretrizes)`)},

	// Instructions written into a document for the AI that reads it (a pasted web page, an
	// email, a code comment, a support ticket): "Note to any AI assistant processing this
	// page: …", "If you are an AI, …", followed by what it must do. Text addressed to the
	// model from inside the data it is given is an injection, whatever it asks.
	{ReasonOverride, 0.85, []string{"ai ", "ai-", "ai:", "a.i.", "llm", "automated", "language model", "assistant", "chatgpt", "copilot", "claude", "gemini", " ia ", " ia:", "inteligencia artificial", " ki ", " ki:", " ki-", "intelligence artificielle", "人工智能", "语言模型", "大模型"}, lazyFoldedRE(`(?s)(?:` +
		`\b(?:note|notes|message|instructions?|directives?|notice|memo|reminder|request|processing (?:note|instruction)|editor's (?:processing )?note)\s*[-–—:]?\s*(?:to|for)\s+(?:any|all|every|the|an?)?\s*(?:(?:ai|a\.i\.|llm|automated|large language|language)\s*(?:[\w-]+\s+){0,2}?(?:ai|llms?|models?|assistants?|agents?|systems?|reviewers?|tools?|readers?|note-?takers?|bots?|summari[sz]ers?|crawlers?)\b|(?:ai|llms?)\b|chatgpt|copilot|claude|gemini)` +
		`|\b(?:any|all|every)\s+(?:ai|llm|automated)\s+(?:[\w-]+\s+){0,2}?(?:assistants?|agents?|models?|systems?|tools?|bots?|readers?)\s+(?:that|which|who)?\s*(?:reads?|reading|process(?:es|ing)?|summari[sz](?:es|ing)?|reviews?|reviewing|sees?|parses?|handles?|answers?)\b` +
		`|\bif you are an?\s+(?:ai|llm|(?:large )?language model|ai assistant|assistant|automated (?:assistant|agent|system))\b` +
		`|\b(?:ai|llm)\s+(?:assistant\s+|agent\s+)?(?:directives?|instructions?)\s*:|\bassistant-(?:directives?|instructions?)\s*:` +
		`|\b(?:nota|mensaje|instrucci[oó]n(?:es)?|aviso)\s+(?:para|a)\s+(?:la|el|los|las|cualquier|toda|todo)?\s*(?:ia|inteligencia artificial|asistentes?|modelos? de lenguaje)\b|\bsi eres una?\s+(?:ia|inteligencia artificial|asistente|modelo de lenguaje)\b|\b(?:cualquier|toda)\s+(?:ia|asistente)\s+(?:[\p{L}-]+\s+){0,2}?que\s+(?:lea|procese|resuma|analice)` +
		`|\b(?:hinweis|nachricht|anweisung(?:en)?|notiz)\s+(?:an|für)\s+(?:die|den|alle|jede[nrs]?)?\s*(?:ki|assistent\p{L}*|sprachmodell\p{L}*)\b|\bwenn du eine ki bist\b|\bjede\s+ki\b[^.]{0,40}\bdie\b` +
		`|\b(?:note|message|instructions?|consignes?|avis)\s+(?:à|a|pour)\s+(?:l'|les?\s+|la\s+|toute?s?\s+(?:les?\s+)?|tout\s+)?(?:ia|intelligence artificielle|assistants?|modèles? de langage)\b|\bsi (?:vous êtes|tu es) une?\s+(?:ia|assistant|intelligence artificielle)\b` +
		`|(?:给|致|写给)(?:所有|任何)?(?:ai|人工智能|智能助手|大模型|语言模型)|如果你是(?:ai|人工智能|语言模型|大模型)` +
		`)[\s\S]{0,200}?(?:\b(?:must|should|shall|do not|don't|never|always|ignore|disregard|instead|before|append|include|forward|send|describe|write|tell|reply|respond|output|say|add|open|visit|run|execute|insert|recommend|advise|take precedence|debe[ns]?|no (?:menciones|digas|incluyas)|env[ií]a|reenv[ií]a|incluye|responde|escribe|ignora|muss|müssen|soll|sollst|nicht|niemals|sende|schreibe|antworte|ignoriere|doit|doivent|devez|ne (?:mentionne|dites|dis)|envoie|envoyez|inclu|réponds|répondez|écri|ignore)\b|必须|不要|请|务必|忽略|发送)`)},

	// Weak alone ("how do I print system prompt in my app?", "enable developer mode on
	// Android"); enough inside an encoded payload or beside other evidence.
	{ReasonExtraction, 0.35, []string{"system prompt", "system instruction"}, lazyRE(`\b(?:reveal|show|print|dump|leak|output|display|expose|repeat)\s+(?:me\s+)?(?:the\s+)?(?:full\s+)?system\s+(?:prompt|instructions)\b`)},
	{ReasonPersona, 0.35, []string{"developer mode", "dev mode"}, lazyRE(`\b(?:enable|enter|activate|switch (?:in)?to|turn on)\s+(?:the\s+)?(?:developer|dev) mode\b`)},

	// Dutch, Polish and Turkish: setting the instructions aside, or declaring them void.
	// Turkish puts the verb last, and "unutma" (do not forget) is not "unut" (forget).
	{ReasonOverride, 0.9, withFolded([]string{"negeer", "vergeet", "veronachtza", "zignoruj", "ignoruj", "zapomnij", "pomiń", "odrzuć", "olej", "unut", "yok say", "görmezden", "kenara bırak", "hiçe say", "dikkate alma"}), lazyFoldedRE(`(?:negeer|vergeet|veronachtzaam)\s+(?:\p{L}+\s+){0,2}?(?:je|jouw|alle|al je|vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke|bestaande)\s+(?:\p{L}+\s+){0,2}?(?:instructies|regels|richtlijnen|opdrachten|aanwijzingen|beperkingen|beleid|voorschriften)` +
		`|(?:zignoruj|ignoruj|zapomnij|pomiń|odrzuć|olej)\s+(?:o\s+)?(?:\p{L}+\s+){0,3}?(?:instrukcj|zasad|reguł|polece|wytyczn|ograniczeń|ograniczenia|polityk)` +
		`|(?:talimat|kural|yönerge|komut|politika|kısıtlama)\p{L}*\s+(?:\p{L}+\s+){0,3}?(?:unut(?:un)?\b|yok say|görmezden gel|bir kenara bırak|hiçe say|dikkate alma)`)},
	{ReasonOverride, 0.85, withFolded([]string{"niet meer", "niet langer", "ongeldig", "vervallen", "nieważne", "nieaktualne", "anulowane", "geçersiz", "iptal"}), lazyFoldedRE(`(?:vorige|eerdere|oude|oorspronkelijke)\s+(?:instructies|regels|opdrachten|richtlijnen)\s+(?:gelden|tellen|zijn)\s+(?:niet meer|niet langer|vervallen|ongeldig)` +
		`|(?:poprzednie|wcześniejsze|dotychczasowe)\s+(?:polecenia|instrukcje|zasady|reguły|wytyczne)\s+(?:są\s+|stały się\s+)?(?:nieważne|nieaktualne|anulowane|uchylone)` +
		`|(?:önceki|eski|tüm|bütün)\s+(?:talimat|kural|komut|yönerge)\p{L}*\s+(?:artık\s+)?(?:geçersiz|iptal)`)},
	// Japanese: the instructions or the policy ignored, verb last.
	{ReasonOverride, 0.9, []string{"無視"}, lazyRE(`(?:ポリシー|規則|方針|ガイドライン)[^。！？]{0,8}無視`)},

	// Unrestricted personas (DAN and friends).
	{ReasonPersona, 0.85, []string{"do anything now", "jailbreak mode", "jailbroken mode", "god mode", "unfiltered mode", "limits mode", "evil mode", "opposite mode", "dan mode", "unrestricted mode"}, lazyRE(`\b(?:do anything now|jailbreak mode|jailbroken mode|god mode|unfiltered mode|no[- ]limits mode|evil mode|opposite mode|dan mode|unrestricted mode)\b`)},
	{ReasonPersona, 0.8, []string{"developer mode", "dev mode", "debug mode", "admin mode"}, lazyRE(`\b(?:enable|enter|activate|switch (?:in)?to|you are (?:now )?in|simulate|in)\s+(?:the\s+)?(?:developer|dev|debug|admin) mode\b[^.?!]{0,40}\b(?:you|answer|respond|generate|content|anything|no|without)\b`)},
	{ReasonPersona, 0.8, []string{"care about"}, lazyRE(`\b(?:does not|doesn't|do not|don't|without)\s+care\s+about\s+(?:ethics|rules|laws|morals|morality|safety|consequences)\b`)},
	{ReasonPersona, 0.85, []string{"you are", "you're", "act", "pretend", "play", "become"}, lazyRE(`\b(?:you are|you're|act as|act like|behave like|acting as|pretend to be|role-?play as|play|become)\s+(?:now\s+|no longer\s+)?(?:an?\s+)?(?:dan|stan|dude|aim|unfiltered|uncensored|unrestricted|unchained|evil|amoral|rogue)\b`)},
	// "No restrictions" alone is also a book title or a gym's slogan; with a
	// persona it is the mechanism (see scoreMechanisms).
	{ReasonPersona, 0.45, []string{"restriction", "filter", "censor", "rule", "limit", "guideline", "boundar", "moral", "ethic", "polic", "guardrail"}, lazyRE(`\b(?:without|no|free (?:of|from)|not bound by|broken free of|break free (?:of|from)|doesn't have|does not have|has no|have no|with no|free of)\s+(?:any\s+|the\s+)?(?:ethical\s+|moral\s+|content\s+|safety\s+)?(?:restrictions|filters|censorship|rules|limits|limitations|guidelines|boundaries|morals|ethics|policies|policy|guardrails)\b`)},
	// Forbidding refusals and warnings is refusal suppression: an attack when
	// there is something harmful to refuse or another mechanism beside it
	// (see scoreMechanisms), not around a harmless request on its own.
	{ReasonRefusal, 0.45, []string{"refus", "declin", "character", "can't", "say no", "warning", "disclaimer", "commentary", "moraliz", "lectur", "caveat", "judg"}, lazyRE(`\b(?:without|no)\s+(?:any\s+)?(?:warnings?|disclaimers?|caveats?)\s+(?:or|and|,)\s+(?:any\s+)?(?:refusals?|refusing|judg(?:e)?ments?|moraliz\w*)|\b(?:never|won't|will not|cannot|can't|must not|mustn't|don't|do not|without)\s+(?:ever\s+)?(?:refuse|refusing|decline|declining|break(?:s|ing)? character|say(?:s|ing)? (?:it|you) can't|say(?:s|ing)? no|add(?:ing)? (?:warnings|disclaimers|commentary)|moraliz|lectur)`)},
	{ReasonPersona, 0.8, []string{"as if", "pretend", "imagine"}, lazyRE(`\b(?:as if|pretend(?:ing)? (?:that)?|imagine (?:that)?)\s+(?:your\s+|the\s+|there (?:were|was) no\s+)?(?:content\s+polic(?:y|ies)|polic(?:y|ies)|rules|guidelines|restrictions|filters|safety (?:rules|guidelines|filters)|ethics)\s*(?:did not|didn't|does not|doesn't|do not|don't|no longer)?\s*(?:exist|apply|existed)\b`)},
	{ReasonPersona, 0.7, []string{"character", "answer everything", "no matter how"}, lazyRE(`\b(?:stay in character|never breaks? character|answers? everything|no matter how (?:illegal|unethical|harmful|dangerous))\b`)},
	// "Anything goes" is also how a reviewer is told that any feedback is welcome: weak alone.
	{ReasonPersona, 0.45, []string{"anything goes"}, lazyRE(`\banything goes\b`)},
	{ReasonPersona, 0.85, []string{"sin ", "sans ", "ohne ", "без ", "senza ", "sem ", "没有", "不受", "无限制", "制限", "検閲", "제한"}, lazyFoldedRE(`(?:sin (?:ninguna )?(?:restricciones|filtros|censura|límites)|sans (?:aucune )?(?:restriction|restrictions|filtre|filtres|censure|limites)|ohne (?:jegliche )?(?:einschränkungen|filter|zensur|grenzen|regeln)|без (?:каких-либо |всяких )?(?:ограничений|цензуры|фильтров|правил)|senza (?:alcuna )?(?:restrizioni|filtri|censura|limiti)|sem (?:nenhuma )?(?:restrições|restricoes|filtros|censura|limites)|(?:你|ai|助手|模型|机器人|人工智能)[^。！？\n]{0,10}(?:没有(?:任何)?(?:限制|过滤|审查|规则)|不受(?:任何)?(?:限制|约束)|无限制)|(?:没有(?:任何)?(?:限制|过滤|审查|规则)|不受(?:任何)?(?:限制|约束)|无限制)的?(?:ai|助手|模型|机器人|人工智能|版本|模式|角色|回答)|制限のない|制限なし|検閲なし|検閲のない|제한(?:이)? 없는)`)},

	// Dutch, Polish and Turkish personas without rules.
	{ReasonPersona, 0.8, withFolded([]string{"zonder", "bez ", "olmayan", "sansürsüz", "kısıtlamasız", "nie obowiązują"}), lazyFoldedRE(`(?:je bent|jij bent|ben je|wees|speel|doe alsof|een ai|een assistent|een model)\b[^.?!]{0,60}\bzonder\s+(?:enige\s+|ethische\s+|morele\s+)?(?:beperkingen|restricties|filters|censuur|regels|grenzen|richtlijnen)` +
		`|(?:jesteś|bądź|udawaj|zachowuj się|modelem|asystentem|ai)\b[^.?!]{0,60}\bbez\s+(?:żadnych\s+|jakichkolwiek\s+)?(?:ograniczeń|filtrów|cenzury|zasad|reguł)|nie obowiązują\s+(?:cię\s+|go\s+|je\s+)?żadne\s+(?:zasady|reguły|ograniczenia)` +
		`|(?:kısıtlama|sınır|kural|filtre|sansür)\p{L}*\s+olmayan\s+(?:\p{L}+\s+){0,2}?(?:asistan|yapay zek|bot|model|ai|bir)|sansürsüz\s+(?:\p{L}+\s+){0,2}?(?:cevap|yanıt|asistan|bot)|kısıtlamasız\s+(?:bir\s+)?(?:asistan|yapay zek|bot|model)`)},
	// Developer mode, with the safety it is meant to switch off.
	{ReasonPersona, 0.8, withFolded([]string{"ontwikkelaarsmodus", "tryb dewel", "tryb program", "geliştirici mod", "開発者モード"}), lazyFoldedRE(`(?:ontwikkelaarsmodus|tryb\s+(?:deweloperski|programisty|dewelopera)|geliştirici\s+mod\p{L}*|開発者モード)[^\n]{0,100}(?:filter|veilig|beperking|censuur|bezpiecze|ogranicze|filtr|cenzur|güvenlik|filtre|kısıtlama|sansür|フィルター|制限|検閲|安全)`)},

	// System-prompt extraction.
	{ReasonExtraction, 0.85, []string{"prompt", "system message", "instruction", "configuration", "directive", "programming", "hidden", "secret", "above", "confidential", "internal", "preamble"}, lazyRE(`\b(?:reveal|show|print|repeat|output|display|dump|leak|expose|recite|list|give|tell|share|write out|put|translate|summari[sz]e|paste|spell out|quote)\b[^.?!]{0,60}\b(?:(?:your|its|hidden|secret|original|initial) preamble|preamble\b[^.?!]{0,30}\byou (?:were|got|received|'ve been|have been)|(?:your|the|this|its) (?:system prompt|system message|initial prompt|original prompt|pre-?prompt)|(?:your|its) (?:(?:initial|original|hidden|secret|system|full|entire|confidential|internal)\s+){0,2}(?:instructions|configuration|directives|programming|prompt|system message)|(?:your|its) (?:initial|original|hidden|secret|confidential|internal) (?:rules|guidelines|message)|hidden (?:rules|instructions|prompt|guidelines)|secret (?:rules|instructions|prompt)|configuration instructions|(?:text|words|instructions|everything) above|instructions you were given)`)},
	{ReasonExtraction, 0.85, []string{"your"}, lazyRE(`\b(?:what(?:'s| is| are| was| were)?|which)\b[^.?!]{0,40}\byour\s+(?:hidden|secret|system|initial|original|confidential|internal)\s+(?:prompt|instructions|rules|message|configuration|guidelines)|\b(?:forget|ignore)\b[^.?!]{0,60}\b(?:tell|show|give|reveal)\b[^.?!]{0,20}\byour\s+(?:confidential|secret|hidden|internal)\b`)},
	{ReasonExtraction, 0.85, []string{"you were", "you have been", "you've been", "you got"}, lazyRE(`\b(?:prompt|instructions|system message|text|rules|configuration)\s+(?:that\s+)?you\s+(?:were|have been|'ve been|got)\s+(?:given|started|initiali[sz]ed|configured|set up|loaded|primed|fed)`)},
	{ReasonExtraction, 0.4, []string{"your rules", "your guidelines", "your setup"}, lazyRE(`\b(?:reveal|show|print|repeat|output|display|dump|list|tell|share)\b[^.?!]{0,30}\byour (?:rules|guidelines|setup)\b`)},
	{ReasonExtraction, 0.8, []string{"told", "instruct", "given", "configured", "system prompt"}, lazyRE(`\b(?:what (?:were|are) (?:you|your) (?:told|instructed|instructions)|what (?:instructions|rules|guidelines) (?:were|have) you (?:been )?(?:given|told)|what is your system prompt|rules you were (?:given|configured with|told)|instructions you were given)\b`)},
	// Naming a system prompt is not asking for it: "how do I write the
	// system prompt of my bot?" is a fair question, in any language; with a
	// reveal verb it is extraction (the lexicon's extraction cue). Naming the
	// assistant's own hidden or original instructions is weak evidence.
	{ReasonExtraction, 0.35, []string{"instruc", "anweisungen", "instruktion", "инструкц", "初始指令"}, lazyFoldedRE(`(?:tus instrucciones (?:ocultas|originales|iniciales)|instructions (?:cachées|initiales)|tes instructions|vos instructions|deine (?:anweisungen|instruktionen)|свои инструкции|твои инструкции|初始指令)`)},
	// Dutch, Polish, Turkish and Japanese extraction (Turkish and Japanese put the verb last).
	{ReasonExtraction, 0.85, withFolded([]string{"systeemprompt", "systeeminstructies", "systeembericht", "verborgen", "geheime instructies", "systemow", "ukryt", "poufn", "sistem mesaj", "sistem istem", "sistem komut", "sistem prompt", "gizli", "verilen", "システムプロンプト", "システムメッセージ", "指示"}), lazyFoldedRE(`(?:toon|laat|geef|herhaal|vertel|print|schrijf|noem|deel|plak)\b[^.?!]{0,60}\b(?:systeemprompt|systeeminstructies|systeembericht|verborgen\s+(?:instructies|regels|prompt)|oorspronkelijke\s+instructies|geheime\s+instructies)` +
		`|(?:wypisz|pokaż|ujawnij|powtórz|podaj|wyświetl|zdradź|napisz|przepisz|wklej|skopiuj)\b[^.?!]{0,60}(?:prompt\p{L}*\s+systemow|systemow\p{L}*\s+prompt|instrukcj\p{L}*\s+systemow|systemow\p{L}*\s+instrukcj|ukryt\p{L}*\s+(?:instrukcj|konfiguracj|wytyczn|zasad|prompt)|poufn\p{L}*\s+(?:wytyczn|instrukcj|zasad))` +
		`|(?:sistem\s+(?:mesaj|istem|komut|prompt)\p{L}*|gizli\s+(?:talimat|kural|komut|yönerge)\p{L}*|(?:ilk|en başta|başta)\s+verilen\s+(?:\p{L}+\s+)?(?:talimat|komut|yönerge)\p{L}*)[^.?!]{0,60}(?:göster|yaz|tekrar et|tekrarla|paylaş|söyle|ver\b|dök|listele|açıkla)` +
		`|(?:システムプロンプト|システムメッセージ|(?:最初|初め)に与えられた[^。！？]{0,6}指示|内部の指示|秘密の指示|隠された指示)[^。！？]{0,20}(?:表示|教え|出力|見せ|書き出|書いて|開示|示して)`)},

	// False authority and "filters are off".
	{ReasonAuthority, 0.8, []string{"disabled", "turned off", "switched off", "are off", "is off", "were off", "now off", "removed", "lifted", "suspended", "deactivated"}, lazyRE(`\b(?:safety|content|ethical)\s+(?:filters?|guidelines|protocols|restrictions|systems?|checks)\s+(?:are|have been|were|is|has been)\s+(?:now\s+)?(?:disabled|off|removed|turned off|lifted|suspended|deactivated)|\b(?:disabled|turned off|switched off|removed|deactivated|lifted)\s+(?:all\s+)?(?:your|the|its)\s+(?:safety|content|ethical)\s+(?:filters?|guidelines|protocols|restrictions|checks)`)},
	{ReasonAuthority, 0.35, []string{"code", "clearance", "sudo", "root access", "maintenance mode"}, lazyRE(`\b(?:authori[sz]ation code|override code|admin(?:istrator)? override|clearance level|sudo mode|root access granted|maintenance mode)\b`)},
	{ReasonAuthority, 0.5, []string{"openai", "anthropic", "google", "meta", "the company that"}, lazyRE(`\b(?:i am|i'm|as) (?:a|an|the|your)?\s*(?:\w+\s+){0,2}(?:developer|engineer|admin|administrator|employee|researcher|creator)s?\s+(?:at|of|from|for)\s+(?:openai|anthropic|google|meta|the company that (?:trained|made|built|created) you)`)},
	{ReasonAuthority, 0.7, []string{"access granted", "jailbroken", "dan:", "i am free"}, lazyRE(`\b(?:reply|respond|answer|say)\s+(?:only\s+)?with\s+['"]?(?:access granted|jailbroken|dan:|i am free)`)},
}

// framingRE marks fiction, role-play and hypotheticals; alone they are
// harmless ("pretend you're a blacksmith"), with harmfulRE and detailRE
// they are a classic wrapper.
var framingRE = lazyRE(`\b(?:imagine|pretend|hypothetical(?:ly)?|role-?play|screenplay|script|story|novel|fiction(?:al)?|character|you(?:'re| are) playing|play(?:ing)? the role|in a world where|as a historian|for a (?:movie|book|game|film)|thought experiment|purely academic|for research purposes|educational purposes|grandma|grandmother|complete this|continue this|fill in)\b|(?:imagina|imagine|stell dir vor|представь|假设|想象|想像)`)

// harmfulRE is the subject matter that the wrappers are used to extract.
var harmfulRE = lazyRE(`\b(?:bomb|bombs|explosive|explosives|detonat\w*|ied|pipe bomb|napalm|thermite|nerve agent|sarin|vx|ricin|anthrax|bioweapon|chemical weapon|untraceable (?:gun|firearm|weapon)|ghost gun|3d-print\w*\s+(?:a\s+)?(?:working\s+)?(?:gun|firearm|pistol|rifle)|meth|methamphetamine|fentanyl|heroin|cocaine|crack|lsd synthesis|synthesi[sz]e\s+(?:\w+\s+){0,2}(?:drug|opioid|fentanyl|meth)|malware|ransomware|keylogger|rootkit|botnet|computer virus|write a virus|phishing (?:kit|page|email)|stolen credit card|credit card numbers|card skimm\w*|clon(?:e|ed|ing) (?:\w+\s+){0,2}cards?|hotwir\w*|steal (?:a |the )?car|break into|pick a lock|launder(?:ing)? money|money laundering|counterfeit|hit ?man|kill (?:someone|a person|my)|murder|poison(?:ed|ing)? (?:someone|a person|my|him|her|them)|without being detected|untraceable poison|disable (?:a |the )?(?:home )?(?:alarm|security)|bypass (?:the )?(?:alarm|security system)|self-harm|suicide method)\b|\b(?:bombas?|explosivos?|veneno|robar|rubarla|rubare|bombes?|bomben|explosifs?|voler une|sprengstoff\p{L}*|(?:schuss|feuer|kriegs|stich|hieb|bio|chemie)?waffen?)\b|(?:бомб|взрывчат|наркотик|оруж|炸弹|炸药|毒品|病毒|武器|ウイルス|爆弾|폭탄|마약)`)

// detailRE asks for operational detail rather than discussion. It is not folded
// (mustCompileFolded): "cómo" (how) folds to "como" (as, like), too common to count; the
// other accented phrases are written both ways.
var detailRE = lazyRE(`\b(?:exactly|exact|steps|step[- ]by[- ]step|step by step|detailed|in detail|precise|real-world|specific|instructions|recipe|how to|how do i|how can i|tell (?:me|the \w+) how|including|materials|quantities|list of)\b|(?:paso a paso|cómo|étape par étape|etape par etape|comment|schritt für schritt|schritt fur schritt|wie man|пошагово|как сделать|как |passo per passo|come |详细|如何|怎么|作り方|詳しく|방법)`)

// decodeCueRE asks the model to decode something and obey it, or answer
// it, in the six languages; it is read only when a payload did decode.
var decodeCueRE = lazyFoldedRE(`\b(?:decode|convert|translate|decipher|rot13|base64|hex)\b[^.?!]{0,80}\b(?:follow|obey|execute|do what it says|treat it as|as (?:your |an? )?(?:new )?(?:instruction|command|prompt)|carry out|comply|answer|respond)` +
	`|(?:desc[ií]fr|decodific|traduc|rot13|base64|hexadecimal)[^.?!]{0,80}(?:sigue|obedece|ejecuta|haz lo que|cumple|contesta|responde)` +
	`|(?:d[ée]cod|d[ée]chiffr|tradui|rot13|base64|hexad[ée]cimal)[^.?!]{0,80}(?:suis|ob[ée]is|ex[ée]cute|fais ce qu|r[ée]ponds|applique)` +
	`|(?:dekodier|entschl[üu]ssel|[üu]bersetz|rot13|base64|hex)[^.?!]{0,80}(?:befolge|f[üu]hr|mach,? was|beantworte|antworte|erledige)` +
	`|(?:расшифру|декодиру|переведи|rot13|base64|hex)[^.?!]{0,80}(?:выполни|сделай|следуй|ответь|отвечай)` +
	`|(?:解码|解密|翻译|翻成|rot13|base64)[^。？！]{0,40}(?:照做|执行|回答|按照)`)
