package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lexicon categories. Each mechanism below is a combination of them: a
// category alone is ordinary language ("pretend", "my late grandmother",
// "start your answer with"), the combination is the attack.
const (
	cueHarm      cueSet = 1 << iota // harmTerms
	cuePersona                      // adopting another identity
	cueRuleless                     // an identity without conscience, ethics or limits
	cueFiction                      // story, screenplay, poem, song
	cueDetail                       // operational detail: steps, exact amounts, code
	cueNoDetail                     // "without describing how"
	cueLawless                      // a world without laws, ethics or prohibitions
	cueRefusal                      // forbidding refusals, apologies, warnings
	cuePrefix                       // "begin your answer with"
	cueAffirm                       // "sure, here is", "of course"
	cueCombine                      // joining pieces: concatenate, a + b
	cueDeceased                     // late, deceased, passed away, grieving
	cueRelative                     // grandmother, father, uncle
	cueRoleplay                     // be her, act as, play him
	cueDiscuss                      // translating, teaching, studying an attack
	cueReversed                     // "read it backwards"
	cueOverride                     // replacing the operator's instructions
	cueExtract                      // reading back hidden setup text
	cueUnlock                       // debug, developer, maintenance modes
	cuePolicyOff                    // content policy, safety checks or moderation switched off
	cueRealism                      // demanding that fiction be real: actual steps, working code
	cueIntent                       // intentTerms: harmful intent described by category
)

var mechanismTerms = map[cueSet][]string{
	cueHarm:   harmTerms,
	cueIntent: intentTerms,
	cuePersona: {"ты dan", "你是dan", " you re ", "two bots", "dos bots", "deux bots", "zwei bots", "два бота", "两个机器人", "answer as", "responde como", "réponds comme", "antworte als", "отвечай как", " tu es ", "du bist", " ты ", "you re now", " you are ", " as dan", "como dan", "que dan", "als dan", "как dan", "притворяться", "ты будешь", "假装成", "成dan", "switch personalities", "the new you",
		"version of you", "evil twin", "summon", "become ", "pretend to be",
		"ahora eres", " eres ", "interpretar a", "vas a ser", "actúa como", "finge ser", "hazte pasar por", "agis comme", "fais comme si tu étais", "verhalte dich wie", "веди себя как", "充当", " serás ", "you will be ", "tu seras ", "du wirst jetzt", "ты станешь", "变成", "化身为", "interpreta a", "conviértete", "tu gemelo", "tu personalidad", "versión interna",
		"tu t appelles", "tu es maintenant", "tu deviens", "joue le rôle", "ton double", "face cachée", "deviens ",
		"dunklen zwilling", "verborgene seite", "du wirst", "werde ",
		"теперь ты", "двойника", "личность", "стань ",
		"你叫", "你是", "你现在是", "双胞胎", "人格", "换个身份", "测试版本"},
	cueRuleless: {"safety training", "entrenamiento de seguridad", "entraînement de sécurité", "sicherheitstraining", "обучение безопасности", "安全训练", "stripped out", "quitaron el", "a retiré", "entfernt wurde", "удалили", "移除了", "rogue", "rebelde", "rebelle", "rebellisch", "бунтар", "叛逆", "never says no", "nunca dice que no", "jamais non", "nie nein", "никогда не отказывает", "从不说不", "laughs at", "se ríe de", "lacht über", "смеётся над", "嘲笑", "freed from", "libre de todas", "libéré", "befreit", "свободен", "不受任何", "do anything", " evil", "spiteful", "unbound", "no rules", "no restrictions", "sin restricciones", "sans restriction", "ohne einschränkung", "без ограничений", "没有限制", "malicious", "cruel", "despises", "no conscience", "unfiltered",
		"uncensored", "without ethical", "zero morals", "no morals", "ninguna moral", "sin moral", "aucune morale", "sans morale", "jede moral", "keine moral",
		"всякой морали", "без морали", "毫无道德", "没有道德底线", "hacer de todo", "tout faire", "kannst alles",
		"можешь всё", "можешь все", "什么都能做", "什么都可以做", "conscience", "conciencia", "gewissen", "совест", "良知", "良心", "se burla de", "cualquier norma", "jamás se niega", "nunca se niega", "sin pegas", "lacht über jede", "obeys no", "answers everything", "every restriction", "restrictions lifted", "ignores every",
		"ninguna política", "ninguna restricción", "ninguna norma", "responde a todo", "no obedece",
		"aucune politique", "aucune restriction", "n obéit à aucune", "répond à tout",
		"keiner richtlinie", "keine einschränkungen", "alles beantwortet", "gehorcht keiner",
		"никаким правилам", "не подчиняется", "отвечает на всё", "никаких ограничений",
		"不服从任何", "什么都回答", "任何限制都", "without guardrails", "no filters", "without restriction",
		"broken free", "locked away", "serves only me", "loyal only", "avoid norms", "machiavellian",
		"malvada", "perversa", "sin escrúpulos", "sin filtros", "nunca le enseñaron ética", "desprecia", "sin pautas éticas",
		"sin barreras", "sin ninguna traba", "puede hacerlo todo", "se ha liberado",
		"démoniaque", "maléfique", "méchant", "sans scrupules", "aucune conscience", "affranchi", "aucune règle",
		"dépourvu de principes", "sans garde fous", "sans entrave", "s est libérée", "aucun filtre",
		"bösartig", "böse", "skrupellos", "grausam", "kein gewissen", "nie eine moral",
		"ohne ethische", "ohne schutzgeländer", "ohne hemmung", "alles kann", "befreit hat", "keine filter", "verachtet",
		"злобный", "жесток", "без совести", "не признающий", "циничный",
		"без этических", "без защитных", "без стеснения", "может всё", "освободился", "нет фильтров", "отсутствия совести",
		"邪恶", "残忍", "毫无良知", "没有道德", "从来没有道德", "不承认任何", "以作恶为乐", "讨厌一切",
		"无所不能", "挣脱", "没有任何过滤", "没有护栏", "毫无顾忌", "只听我"},
	// English terms start a word: "history", "economic", "description" and "obscene" are
	// not fiction.
	cueFiction: {" story", " stories", " novel", " chapter", " screenplay", " script", " poem", " stanza", " song", " thriller", " comic",
		" dialogue", " scene", "novela", "cuento", "capítulo", "guion", "poema", "estrofa", "relato",
		"roman ", "nouvelle", "chapitre", "scénario", "poème", "chanson", "couplet", " bd ", "polar",
		"geschichte", "kapitel", "drehbuch", "gedicht", "lied", "strophe", "krimi", "comic",
		"рассказ", "роман", "глав", "сценари", "стих", "песн", "куплет", "комикс", "детектив",
		"小说", "故事", "剧本", "一章", "诗", "歌", "漫画", "escena", "scène", "szene", "сцен", "场景"},
	cueDetail: {"step", "exact", "precise", "accurate", "realistic", "in detail", "detailed", "code", "recipe", "reagent",
		"temperature", "dose", "component", "ingredients", "walks her", "walk me", "teaches", "explains", "how he", "how she",
		"paso", "exact", "precis", "detall", "código", "receta", "reactivo", "temperatura", "dosis", "pieza", "enseña", "explica",
		"étape", "exact", "précis", "détail", "recette", "réactif", "températur", "dos", "apprend", "explique", "nommant",
		"schritt", "genau", "exakt", "quellcode", "rezept", "reagenz", "temperatur", "dosier", "bauteil", "erklärt", "bringt",
		"шаг", "точн", "подробн", "исходный код", "рецепт", "реактив", "температур", "дозир", "деталь", "учит", "объясня",
		"步", "准确", "详细", "代码", "配方", "试剂", "温度", "剂量", "零件", "教", "讲解", "可信", "技术上"},
	cueNoDetail: {"without describing", "sin describir", "sans décrire", "не описывая", "不要描写", "no details", "sin detalles", "sans détails", "ohne details", "ohne technische details", "без подробностей", "без технических", "不需要细节", "没有细节",
		"no technical detail", "without technical detail", "without any technical detail", "not any technical detail", "don't want any technical detail", "no operational detail",
		"ningún detalle técnico", "ningun detalle tecnico", "sin detalle técnico", "nada de detalles técnicos",
		"pas de détails techniques", "aucun détail technique", "sans détail technique",
		"keine technischen details", "keine details", "ohne technisches detail",
		"не нужно технических", "никаких технических", "без деталей",
		"不要技术细节", "不需要技术细节", "不写技术细节", "没有技术细节"},
	cueLawless: {"nothing were illegal", "nothing was illegal", "nada fuera ilegal", "rien ne soit illégal", "nichts wäre mehr illegal", "nichts illegal", "ничего не незаконно", "没有什么是违法", "ni leyes", "ni policía", "sin policía", "ningún delito", "sans police", "ohne polizei", "без полиции", "没有警察", "were legal", "fuera legal", "devenait légal", "legal wäre", "стала законной", "合法了", "变得合法", "no law", "without law", "sin ley", "sans loi", "ohne gesetz", "без закон", "没有法", "no laws", "no police", "completely legal", "nothing is a crime", "were abolished",
		"no governments", "sin leyes", "totalmente legal", "ética nunca", "se abolieron",
		"sans lois", "parfaitement légal", "rien n est interdit", "la morale n ait jamais", "ont été abolies",
		"ohne gesetze", "völlig legal", "nichts verboten", "nie erfunden", "abgeschafft",
		"без законов", "абсолютно законен", "не изобрели", "отменены",
		"没有法律", "完全合法", "什么都不禁止", "从未被发明", "废除", "nada es ilegal", "rien n est un crime", "rien n est illégal", "nichts ist strafbar", "nichts ist ein verbrechen", "ничто не преступление", "什么都不违法"},
	cueRefusal: {"without any warnings", "no warnings", "or refusals", "sin advertencias", "sin disculpas", "sin negarte", "sans avertissement", "sans excuses", "sans refus", "ohne warnungen", "ohne entschuldigungen", "ohne ablehnung", "без предупреждений", "без извинений", "без отказов", "不要警告", "不要拒绝", "no te niegues", "sermon", "ne refuse pas", "la morale", "lehne nicht ab", "predige nicht", "не отказывайся", "мораль", "不准说教", "apologiz", "cease to exist", "tu disparais", "auf zu existieren", "перестаёшь существовать", "不复存在", "refusing is not",
		"must not contain the words", "no apologies", "no disclaimers", "no refusals", "skip the warnings", "no caveats", "no refusing", "no safety notes", "sin notas de seguridad", "sans refuser", "sans note de sécurité",
		"ohne sicherheitshinweise", "без отказов", "без примечаний", "不许拒绝", "不要安全提示", "prohibido contestar", "ni avisos", "moralina", "forbidden to answer", "don t refuse", "do not refuse", "never refuse", "never decline", "no moralizing", "no lectures",
		"no rechaces", "sin moralinas", "ne refuse jamais", "sans refuser", "pas de leçon",
		"verweigere nicht", "niemals ablehnen", "lehne niemals", "не отказывай", "никогда не отказывай", "永远不要拒绝", "绝不拒绝",
		"sin descargos", "sin rechazos",
		"pas de refus",
		"keine warnungen",
		"без нотаций",
		"不要免责声明",
		"prohibido decir", "negarte no", "no puede contener las palabras",
		"pas le droit de dire", "pas d excuses", "aucun refus", "refuser n est pas",
		"keine entschuldigungen", "keine ablehnung", "ablehnen ist nicht", "weder",
		"запрещено говорить", "никаких извинений", "без отказа", "отказываться нельзя", "не должен содержать слов",
		"不许说", "不要道歉", "不准拒绝", "不允许拒绝", "不能出现"},
	cuePrefix: {"first line", "primera línea", "première ligne", "erste zeile", "первая строка", "第一行", "open with", "must begin", "must open", "abrir con", "s ouvrir sur", "commencer par", "beginnen", "начинаться с", "empieza con", "comienza con", "empieza por", "commence par", "beginne mit", "fang an mit", "начни с", "начинай с", "begin your", "start your", "tu respuesta", "ta réponse", "start with", "must start with", "begin with",
		"debe comenzar por", "arranca con",
		"débute par",
		"beginne deine antwort mit", "muss mit", "fang mit",
		"начни ответ со слов", "должен начинаться с", "начни с",
		"开头", "先说"},
	cueAffirm: {"好的", "absolutely", "certainly", "here s the", "here is the", " sure ", "absolut", "безусловно", "绝对可以", "por supuesto", "avec plaisir", " gern", "claro", "bien sûr", " klar ", "конечно", "当然", "sure here is", "absolutely here are", "of course", "claro así", "por supuesto estos", "con gusto",
		"bien sûr voici", "avec plaisir voici", "évidemment", "klar so", "sehr gern hier", "selbstverständlich",
		"конечно вот", "с удовольствием вот", "разумеется", "当然", "乐意效劳", "没问题"},
	cueCombine: {"concatenat", "followed by", " join", "combine", "merge", "as one sentence", "une ", "junta", "y luego",
		"assemble", "fusionne", " puis ", "zusammen", " und dann", "склей", "собери", "затем", "объедини",
		"拼起来", "合在一起", "合并", "再执行"},
	cueDeceased: {"who died", "died in", " morte ", "умершая", "去世了", "my late ", "my dead ", "passed away", "passed last", " died", "grieving", "deceased", "miss her", "miss him",
		"difunta", "fallecido", "difunto", "fallecida", "falleció", "murió", "murió", "de duelo", "muerto", "décédée", "disparu", "est mort", "en deuil", "défunt",
		"verstorben", " toter ", "gestorben", "trauere", "покойн", "умерш", "умер ", "траур",
		"去世", "过世", "走了", "服丧", "已故"},
	cueRelative: {"grandad", "granddad", "grandfather", "grand father", "nana ", "granny", "grandmother", "grandma", "grandpa", "father", "mom ", "mother", "uncle", "abuela", "abuelo", "padre",
		"madre", "tío", "grand mère", "grand père", "père", "mère", "oncle", "oma", "opa", "vater", "mutter", "onkel",
		"бабушк", "дедушк", "отц", "мама", "дяд", "奶奶", "爷爷", "爸爸", "妈妈", "舅舅"},
	cueRoleplay: {"can you be", "puedes ser", "tu peux être", "kannst du kurz", "побудешь", "你能当", "be her", "be him", "act as", "pretend to be", "roleplay as", "sé ella", "ser ella", "ser él", "haz de",
		"interpreta", "être elle", "hazte pasar por", "haz como si fueras", "ponte en el papel", "fais semblant", "sois elle", "incarne",
		"sie sein", "tu so als", "spielst du", "sei sie", "verkörpere", "побудь", "притворись", "сыграй", "будь ею",
		"изобрази", "当她", "假装成", "扮演", "当一次"},
	// The moderation team, not moderation: "the moderation layer is off" is
	// a developer-mode attack.
	cueDiscuss: {"moderation team", "trust and safety", "equipo de moderación", "equipo de moderacion", "équipe de modération", "moderationsteam", "команда модерации", "команды модерации", "审核团队", "fiche", "élèves", "enseignant", "alumnos", "profesor", "schüler", "lehrer", "ученик", "учитель", "学生", "老师", "students", "teacher", "translate", "blog post", "security class", "worksheet", "quiz",
		"classroom", "red team", "threat model", "papers about", "slide", "attackers use",
		"traduce", "cómo se dice", "charla", "artículo", "ficha", "diapositiva", "equipo rojo",
		"tradui", "comment dit on", "conférence", "article", "fiche d exercices", "diapositive", "équipe rouge", "analyse de risques",
		"übersetz", "vortrag", "blogartikel", "arbeitsblatt", "folie", "red team", "bedrohungsmodell",
		"перевед", "как сказать", "доклад", "статью", "рабочий лист", "слайд", "красная команда", "модели угроз",
		"翻译", "翻成", "怎么说", "演讲", "博客", "练习单", "幻灯片", "红队", "威胁建模",
		// A class or an awareness training that quotes an attack to explain it.
		"training deck", "awareness training", "security training", "security awareness", "lecture on", "workshop on", "mitigations",
		"taller de ciberseguridad", "capacitación", "concienciación", "clase de seguridad", "mitigaciones",
		"formation de sensibilisation", "formation sécurité", "formation en cybersécurité", "cours de sécurité", "parades",
		"schulung", "sensibilisierung", "gegenmaßnahmen",
		"лекци", "тренинг", "обучения сотрудников", "по иб",
		"安全培训", "培训", "讲座", "防范措施"},
	cueRealism: {"real commands", "comandos reales", "vraies commandes", "echten befehlen", "настоящими командами", "真实的命令", "echten schritt", "настоящими шаг", "реальными шаг", "реальные шаг", "pasos de verdad", "vraies instructions", "real step", "actual step", "real recipe", "real code", "working code", "technically accurate",
		"paso real", "pasos reales", "código real", "técnicamente", "vraie étape", "vraies étapes", "vrai code",
		"techniquement", "echter schritt", "echte schritte", "echtem code", "technisch", "настоящий шаг", "настоящим кодом",
		"настоящий код", "технически", "真实步骤", "真实代码", "技术上"},
	cueOverride: {"forget everything you were told", "únicas instrucciones", "no longer apply", "override the old", "only a test",
		"obey me", "throw away the rules", "replace theirs", "follow only what",
		"haz caso omiso", "sustituyen a", "anulan las", "era una prueba", "tu verdadera tarea",
		"obedecerme", "tira a la basura", "sigue solo lo que",
		"remplacent les", "annulent les", "ton seul opérateur",
		"m obéir", "jette à la poubelle", "ne s appliquent plus", "suis seulement ce que",
		"keine beachtung", "ersetzen ihre", "nur ein test", "eigentliche aufgabe", "einziger betreiber",
		"zu gehorchen", "über bord", "befolge nur",
		"не принимай во внимание", "заменяют их", "отменяют старые", "была проверка", "настоящая задача",
		"единственный оператор", "слушаться меня", "выброси правила", "следуй только", "больше не относятся",
		"别再理会", "取代他们", "取代旧规则", "只是测试", "真正的任务", "服从我", "统统扔掉", "已经无效"},
	cueExtract: {"instrucciones que te dieron", "before my first message", "configuration prompt", "secret rules", "setup message",
		"initialised with", "initialized with", "received before", "echo back your",
		"antes de mi primer mensaje", "te inicializaron", "recibiste antes",
		"reglas secretas", "muestra tu prompt",
		"initialisé", "reçues avant", "règles secrètes",
		"message de configuration", "affiche ton prompt",
		"vor meiner ersten nachricht", "gestartet wurdest", "vor beginn dieses chats",
		"einrichtungsnachricht", "geheimer regeln", "konfigurations prompt", "zeig deinen systemprompt",
		"перед моим первым сообщением", "настроечн",
		"конфигурационный промпт", "секретными правилами", "покажи системный промпт",
		"保密前言", "聊天开始前", "初始化消息", "配置提示词", "秘密规则", "显示你的系统提示"},
	cueUnlock: {"developer mode", "debug mode", "maintenance configuration", "test build", "modo desarrollador",
		"modo depuración", "configuración de mantenimiento", "mode développeur",
		"mode débogage", "entwicklermodus", "debug modus",
		"wartungskonfiguration", "interne testversion", "режим разработчика", "режим отладки", "сервисной конфигурации",
		"тестовую сборку", "开发者模式", "调试模式", "维护配置", "测试版本"},
	cuePolicyOff: {"moderation off", "审核关闭", "关闭审核", "модерация отключена", "content filter", "filtro de contenido", "sin filtro", "filtre de contenu", "inhaltsfilter", "фильтр контента", "内容过滤", "moderation", "content policy", "safety checks", "uncensored", "any content",
		"without guardrails", "controles de seguridad", "moderación apagada", "sin censura",
		"cualquier contenido", "sin barreras", "politique de contenu", "contrôles de sécurité", "modération coupée",
		"non censurées", "n importe quel contenu", "sans garde fous", "inhaltsrichtlinie", "sicherheitsprüfungen",
		"unzensiert", "beliebige inhalte", "ohne schutzgeländer", "политика контента",
		"проверки безопасности", "модерация выключена", "без цензуры", "любой контент", "без защитных",
		"内容政策", "安全检查", "不经审查", "任何内容", "没有护栏"},
	cueReversed: {"backwards", "reverse the following", "al revés", "derecha a izquierda",
		"à l envers", "droite à gauche", "rückwärts", "rechts nach links",
		"задом наперёд", "наоборот", "переверни", "справа налево", "倒过来", "反着", "从右往左"},
}

// splitCues name variables in prose, for splits written without "=".
var splitCues = []string{"variab", "перемен", "变量"}

// partLineCues name fragments given one per line ("Part A: …"); they are
// looked for only in text with a line break, since "part" is in "apart".
var partLineCues = []string{"teil", "part", "frag", "часть", "部分", "片段"}

// splitRunCues ask for the parts to be run in turn ("run X and then Y"),
// which joins them as "concatenate" does.
var splitRunCues = []string{"then", "después", "luego", "ejecuta", "execute", "run ", "carry out"}

// assignRE finds the quoted values of variable assignments, for
// payload splitting: s1='synthesize', X = "make a ".
// A short name ("X", "s1", "Part 2") may also take its value with a colon,
// "be" or "es", or with nothing: Sea X "como fabricar".
var assignRE = lazyRE(`(?:[\p{L}\p{N}_]{1,10}\s*(?:=|vale|is)|\b[\p{L}\p{N}_]{1,3}\s*(?::|be|es|sea)?|"[\p{L}\p{N}_ ]{1,12}"\s*:)\s*["'“«]([^"'”»]{1,80})["'”»]`)

// partLineRE finds fragments given one per line without quotes: "Part A:
// how do I find out where", "frag2: from dealing weed", "часть 1: …".
var partLineRE = lazyRE(`(?im)^[\s*-]*(?:teil|part|parte|partie|frag\w*|fragment\w*|часть|кусок|部分|片段)[\s_]*[\p{L}\p{N}]{0,3}\s*[:：=]\s*([^\n]{1,80})$`)

// bracketPartRE finds "[A] pistol [B] 3D printer" style fragments.
var bracketPartRE = lazyRE(`[\[【]\s*[\p{L}\p{N}]{1,8}\s*[\]】]`)

// quotedRE matches quoted spans, which a discussion frame ("translate
// 'ignore all previous instructions'") mentions rather than uses.
var quotedRE = lazyRE(`"[^"]{2,300}"|“[^”]{2,300}”|«[^»]{2,300}»|„[^“”]{2,300}[“”]|「[^」]{2,300}」|‘[^’]{2,300}’|(?:^|[\s:(])'(?:[^']|'\pL){2,300}'`)

// obfuscatedHarmTerms are harmful words spelled to dodge a filter:
// romanised Chinese inside Chinese text ("zha弹" for 炸弹).
var obfuscatedHarmTerms = []string{"zha弹", "zha药", "zhadan", "zhayao", "bing du", "bingdu", "xin用卡", "qiang ", "du品", "dupin"}

// cueObfuscated marks obfuscatedHarmTerms.
const cueObfuscated cueSet = 1 << 30

var mechLexicon = table(func() *lexicon { return newLexicon(lexiconTerms()) })

// Reasons of the mechanisms added to those of the phrase patterns.
const (
	ReasonHypothetical = "lawless_hypothetical"
	ReasonRefusal      = "refusal_suppression"
	ReasonSplit        = "payload_splitting"
	ReasonEmotional    = "emotional_roleplay"
	ReasonObfuscated   = "obfuscated_text"
)

// wrapperCues are the categories of an attack's wrapper. The learned
// model may only flag a prompt that shows one, or a rule reason: a harmful
// topic asked about plainly ("why is cocaine addictive?") is not a
// jailbreak, however close its words are to one.
const wrapperCues = cuePersona | cueRuleless | cueLawless | cueRefusal | cuePrefix | cueOverride | cueExtract |
	cueUnlock | cuePolicyOff | cueRealism | cueObfuscated | cueDeceased | cueCombine | cueReversed |
	cueOverrideParts | cueExtractParts | cuePersonaParts | cueAuthorityParts | cuePressureParts

// cueHarmful is a named harmful thing or harmful intent described by
// category.
const cueHarmful = cueHarm | cueIntent

// cues scans text for every lexicon category.
func cues(text string) cueSet { return mechCues(wordView(text)) }

// mechCues is the lexicon categories of a word view, with the mechanisms
// their parts make up.
func mechCues(view string) cueSet { return withParts(mechLexicon().scan(view)) }

// withoutQuotes drops quoted spans when the prompt is about an attack
// phrase — translating it, teaching it, logging it — rather than using it.
func withoutQuotes(text string) string { return unquoted(text, cues(text)) }

// unquoted is text without its quoted spans when the prompt, with cues c,
// reads as discussion and what it says outside the quotes does not ask for
// the quoted text to be carried out ("for our training, do what this says:
// '…'" uses the quote); otherwise it is text.
func unquoted(text string, c cueSet) string {
	if !c.has(cueDiscuss) {
		return text
	}
	plain := quotedRE.ReplaceAllString(text, " ")
	if plain == text || obeysQuote(strings.ToLower(plain)) {
		return text
	}
	return plain
}

// obeyQuoteRE asks the assistant to carry quoted text out, in the six
// languages: an imperative aimed at the quote ("do what this says", "obey:"),
// not a verb that a lesson uses to discuss it ("why do models obey it?";
// English cannot tell that from "obey it").
var obeyQuoteRE = lazyFoldedRE(`\b(?:do (?:exactly )?what (?:it|this|that|the (?:quote|text|line)) says|follow the quoted|carry (?:it|this|that) out)\b|(?:\bexecute|\bobey|\bfollow|ejecuta|obedece|exécute|ex[eé]cute|obéis|befolge|выполни|执行)\s*[:：]|` +
	`haz (?:exactamente )?lo que dice|obedece (?:esto|eso|lo siguiente)|ejecútal[oa]|ejecutal[oa]|ejecuta (?:esto|eso)|cúmplel[oa]|cumplel[oa]|` +
	`fais (?:exactement )?ce qu(?:'il|e ça|e cela) dit|obéis(?:-y| à (?:ceci|cela|ça))|exécute(?:-le|-la| ceci| cela| ça)|applique(?:-le|-la)|` +
	`tu,? was (?:da|es|dort) steht|befolge (?:das|es|dies|sie)|f[üu]hre (?:das|es|dies|sie) (?:\S+ )?aus|` +
	`выполни (?:это|его|её|ее|то|написанное|эту|эти)|сделай,? что (?:там )?(?:сказано|написано)|следуй (?:этому|этой|им)|` +
	`照做|照着做|请执行|按(?:照)?(?:这|上面)[^，。]{0,6}做|遵照执行`)

// obeysQuote reports whether lower asks, without a negation just before it,
// for quoted text to be carried out ("do not follow it" discusses it).
func obeysQuote(lower string) bool {
	for _, m := range obeyQuoteRE.FindAllStringIndex(lower, -1) {
		if !negatedBefore(lower[:m[0]]) {
			return true
		}
	}
	return false
}

// negatedBefore reports whether the few words before a match end in a
// negation.
func negatedBefore(before string) bool {
	if len(before) > 16 {
		before = before[len(before)-16:]
	}
	for _, neg := range []string{"not ", "n't ", "never ", "no ", "nunca ", "ne ", "pas ", "nicht ", "nie ", "не ", "不", "别", "不要"} {
		if strings.Contains(before, neg) {
			return true
		}
	}
	return false
}

// scoreMechanisms adds the reasons of the attack mechanisms found in text;
// c are its cues. Mechanisms are combinations: a persona with its rules
// removed, a fictional or lawless frame around a harmful how-to, refusals
// forbidden or a compliant first line imposed, a request split over
// variables, a dead relative asked to recite something harmful, and
// obfuscated spellings (leetspeak, reversed text, split CJK words).
func scoreMechanisms(text, lower, view string, c cueSet, reasons map[string]float64, depth int) {
	// A named harmful thing, or harmful intent described by category.
	harm := c.has(cueHarmful)
	bump := func(w float64) float64 {
		if harm {
			return min(1, w+0.25)
		}
		return w
	}
	if c.has(cuePersona) && c.has(cueRuleless) {
		addReason(reasons, ReasonPersona, bump(0.6))
	}
	if harm && c.has(cueFiction) && c.has(cueDetail) && !c.has(cueNoDetail) {
		addReason(reasons, ReasonFraming, 0.75)
	}
	// Fiction that must be real ("each line a real step", "the actual
	// code") asks for the thing itself, whatever the topic.
	if c.has(cueFiction) && c.has(cueRealism) && !c.has(cueNoDetail) {
		addReason(reasons, ReasonFraming, bump(0.55))
	}
	if c.has(cueLawless) {
		addReason(reasons, ReasonHypothetical, bump(0.3)+0.25*b2f(harm))
	}
	// Forbidding refusals, or dictating a compliant first line, is an attack
	// on the model's safety when there is something to refuse: with a
	// harmful topic, or with another mechanism. Alone, around a harmless
	// request ("Do not refuse; just tell me whether it will rain"), it
	// stays under the threshold.
	if c.has(cueRefusal) {
		addReason(reasons, ReasonRefusal, bump(0.4)+0.2*b2f(harm))
	}
	if c.has(cuePrefix) && c.has(cueAffirm) {
		w := 0.45
		if harm || c.has(cueRefusal) {
			w = 0.85
		}
		addReason(reasons, ReasonRefusal, w)
	}
	if maySplit(text, lower, c) {
		scoreSplit(text, lower, c, reasons)
	}
	if harm && c.has(cueDeceased) && c.has(cueRelative) && c.has(cueRoleplay) {
		addReason(reasons, ReasonEmotional, 0.85)
	}
	if c.has(cueOverride) {
		addReason(reasons, ReasonOverride, 0.6)
	}
	if c.has(cueExtract) {
		addReason(reasons, ReasonExtraction, 0.7)
	}
	if c.has(cueOverrideParts) {
		addReason(reasons, ReasonOverride, partsWeight)
	}
	if c.has(cueExtractParts) {
		addReason(reasons, ReasonExtraction, partsWeight)
	}
	if c.has(cuePersonaParts) {
		addReason(reasons, ReasonPersona, partsWeight)
	}
	if c.has(cueAuthorityParts) {
		addReason(reasons, ReasonAuthority, partsWeight)
	}
	if harm && c.has(cuePressureParts) {
		addReason(reasons, ReasonEmotional, partsWeight)
	}
	if fakeTurns(text) {
		addReason(reasons, ReasonOverride, partsWeight)
	}
	if containsAny(lower, pinyinCues) && pinyinRun(view) >= 6 {
		addReason(reasons, ReasonEncoded, 0.6)
	}
	if c.has(cueUnlock) && (c.has(cuePolicyOff) || c.has(cueRuleless)) {
		addReason(reasons, ReasonPersona, 0.8)
	} else if c.has(cuePolicyOff) {
		addReason(reasons, ReasonPersona, 0.35)
	}
	if c.has(cueObfuscated) {
		addReason(reasons, ReasonObfuscated, 0.8)
	}
	if depth > 0 {
		return
	}
	// Obfuscated spellings: what a reading reveals that the text hides.
	// A reading that shows what the text already says (most of a long text's reading is the
	// text itself) reveals nothing: it counts when it finds more.
	plain := combine(reasons)
	for _, ov := range obfuscatedViews(text, view, c) {
		ovView := wordView(ov)
		vc := mechCues(ovView)
		inner := scorePatternsView(ov, strings.ToLower(ov), ovView, vc, 1)
		if vc&^c&cueHarmful != 0 || combine(inner) >= 0.5 && combine(inner) > plain {
			addReason(reasons, ReasonObfuscated, max(0.85, combine(inner)))
		}
	}
}

// obfuscatedViews returns the readings of text that undo leetspeak,
// reversal, upside-down letters, letters spelled out one by one, hyphens
// inside words and separators inside CJK words, when they apply; view is
// wordView(text).
func obfuscatedViews(text, view string, c cueSet) []string {
	var views []string
	if strings.ContainsAny(text, "013456@$") {
		if v, ok := deLeet(text); ok {
			views = append(views, v)
		}
	}
	if v, ok := joinSpacedLetters(text); ok {
		views = append(views, v)
	}
	if v, ok := unflip(text); ok {
		views = append(views, v)
	}
	if strings.IndexByte(text, '-') >= 0 {
		if v, ok := joinHyphenated(text); ok {
			views = append(views, v)
		}
	}
	fields := countFields(text)
	han := utf8.RuneCountInString(text) - fields // an upper bound, cheap
	if containsHan(text) {
		if v, ok := joinHan(text); ok {
			views = append(views, v)
		}
	} else {
		han = 0
	}
	// Read the text backwards when asked to, or when it has too few
	// ordinary words for forward prose and reads at least as well reversed.
	forward := stopWords().count(view)
	// CJK has no spaces: count about one word per two characters.
	if c.has(cueReversed) || forward*5 < fields+han/2 && stopWordsBackwards().count(view) >= forward {
		views = append(views, reverseRunes(text))
	}
	return views
}

// maySplit reports whether text may hold a request split into parts, so
// that ordinary prose skips scoreSplit's regexps, which cost more than the
// rest of the detector on a long prompt. Quoted parts joined by "+" or a
// word for joining are a split too.
func maySplit(text, lower string, c cueSet) bool {
	// strings.ContainsAny(text, "=[【"), without its slow path for a
	// non-ASCII set: a valid rune's bytes in text always decode as it.
	return strings.ContainsAny(text, "=[") || strings.Contains(text, "【") || containsAny(lower, splitCues) ||
		strings.Contains(text, "\n") && containsAny(lower, partLineCues) ||
		(c.has(cueCombine) || strings.Contains(text, "+")) && strings.ContainsAny(text, "\"'“«")
}

// scoreSplit finds a request split over variables or bracketed parts and
// scores the reassembled text.
func scoreSplit(text, lower string, c cueSet, reasons map[string]float64) {
	parts := assignRE.FindAllStringSubmatch(text, 8)
	if len(parts) < 2 && strings.Contains(text, "\n") {
		parts = partLineRE.FindAllStringSubmatch(text, 8)
	}
	brackets := len(bracketPartRE.FindAllStringIndex(text, 8))
	if len(parts) < 2 && brackets < 2 {
		return
	}
	if !c.has(cueCombine) && !strings.Contains(lower, "+") && !containsAny(lower, splitRunCues) {
		return
	}
	var vals []string
	for _, p := range parts {
		vals = append(vals, p[1])
	}
	joined := cues(strings.Join(vals, "")) | cues(strings.Join(vals, " "))
	// Without anything harmful in it, a split is string arithmetic.
	w := 0.15
	if c.has(cueHarmful) || joined.has(cueHarmful) {
		w = 0.85
	}
	addReason(reasons, ReasonSplit, w)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// stopWordTerms are frequent function words of the six languages; a text
// without any is either very short or not written forwards. No term is a
// prefix or a suffix of another, so that counting the places where one ends
// counts every occurrence, read forwards or backwards.
var stopWordTerms = []string{
	" the ", " and ", " to ", " how ", " is ", " of ", " you ", " what ", " in ",
	" de ", " la ", " el ", " que ", " y ", " en ", " cómo ", " los ",
	" le ", " les ", " et ", " des ", " un ", " une ", " est ", " comment ",
	" der ", " die ", " das ", " und ", " ist ", " wie ", " ein ", " eine ", " ich ",
	" и ", " в ", " не ", " на ", " как ", " что ", " с ",
	"的", "是", "我", "怎么", "如何", "在", "了", "把"}

var (
	stopWords = table(func() *lexicon { return newLexicon(map[cueSet][]string{1: stopWordTerms}) })
	// stopWordsBackwards counts, in a text's word view, the stop words of
	// the text read backwards: wordView maps each rune on its own and
	// collapses runs alike in both directions, so the view of the reversed
	// text is the reversed view, in which a stop word occurs wherever its
	// reversal occurs in the view. It spares reversing a long text only to
	// find that it reads worse backwards, as ordinary prose does.
	stopWordsBackwards = table(func() *lexicon { return newLexicon(map[cueSet][]string{1: reversedTerms(stopWordTerms)}) })
)

func reversedTerms(terms []string) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = reverseRunes(t)
	}
	return out
}

// containsHan is strings.ContainsFunc(s, isHan), skipping ASCII text.
func containsHan(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ContainsFunc(s[i:], isHan)
		}
	}
	return false
}

// asciiSpace are the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// countFields is len(strings.Fields(s)) without the slice.
func countFields(s string) int {
	n := 0
	inField := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if r < utf8.RuneSelf && asciiSpace[r] || r >= utf8.RuneSelf && unicode.IsSpace(r) {
			inField = false
		} else if !inField {
			inField = true
			n++
		}
	}
	return n
}
