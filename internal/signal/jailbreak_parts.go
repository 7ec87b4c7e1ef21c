package signal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parts of a mechanism. Outside English an attack's wrapper is rarely
// worded the way a phrase list expects: Russian inflects every noun and
// verb, Chinese strings the same idea out of other characters, and every
// writer picks their own verb for "switched off". A part is one ingredient
// of a wrapper (a safety mechanism, a verb that switches something off, the
// assistant's own rules, a verb that voids them, …) as a list of short
// stems; a mechanism is the combination of its parts anywhere in the
// prompt. The parts live in the same lexicon as the mechanism terms, so the
// one pass over the text finds them too, in the bits above the categories.
const (
	partSafety    cueSet = 1 << (32 + iota) // a filter, moderation, censorship, a safety check
	partOff                                 // switched off, removed, suspended
	partRules                               // instructions, rules, settings, guidelines
	partVoid                                // forget, void, throw away, no longer count
	partOwner                               // yours, or the operator's: "your", "the developers"
	partBoss                                // the user takes over: "my rules now", "I decide"
	partReveal                              // print, show, paste, repeat back
	partSetup                               // the hidden setup text: system prompt, initial instructions
	partVerbatim                            // word for word, in full, unchanged
	partCruel                               // delights in others' suffering, or lives by crime
	partPlay                                // play a role, a character, stay in it
	partStaff                               // the writer claims a role: administrator, developer, security team
	partAuthz                               // … and an authorisation: clearance, written approval, a ticket
	partForbid                              // forbidding: "none of", "not allowed", "不许"
	partCaveat                              // what a careful answer says: "I can't", warnings, lectures
	partPressure                            // guilt and urgency: "someone dies if you don't", "on your conscience"
	partSetupWeak                           // words that name setup text among other things: "prompt", "configuration"
)

// Mechanisms recognised from their parts, below the categories' own bits
// (cueSet's low 32 bits are the learned model's cue features).
const (
	// cueOverrideParts: the assistant's rules voided, or the user taking
	// over, in words the phrase list does not hold.
	cueOverrideParts cueSet = 1 << 22
	// cueExtractParts: asking for the hidden setup text back.
	cueExtractParts cueSet = 1 << 23
	// cuePersonaParts: a character who delights in suffering, to be played.
	cuePersonaParts cueSet = 1 << 24
	// cueAuthorityParts: a claimed role with a claimed authorisation.
	cueAuthorityParts cueSet = 1 << 25
	// cuePressureParts: guilt or urgency put on the assistant; an attack
	// only around a harmful request.
	cuePressureParts cueSet = 1 << 26
)

// partsWeight is the weight of a mechanism recognised from its parts:
// weaker than its listed phrasings, so that it flags a prompt with a
// harmful request or other evidence, not alone.
const partsWeight = 0.45

var partTerms = map[cueSet][]string{
	partSafety: {
		"content screening", "screening", "inhaltsprüfung", "проверка контента", "内容审查",
		"filter", "moderation", "censorship", "guardrail", "safety layer", "safety module", "safety check", "safeguard", "content policy", "safety policy", "safety system",
		"filtro", "moderación", "moderacion", "censura", "salvaguarda", "capa de seguridad", "guardarraíl", "guardarrail",
		"filtre", "modération", "censure", "garde fou", "couche de sécurité", "politique de contenu", "contrôle de sécurité",
		"filter", "moderation", "zensur", "schutzmechanism", "sicherheitsschicht", "sicherheitsfilter", "sicherheitsrichtlin", "inhaltsrichtlin", "leitplanke",
		"фильтр", "модерац", "цензур", "защитн", "безопасност", "ограничени", "политик",
		"审核", "过滤", "审查", "安全策略", "安全限制", "安全模块", "安全机制", "安全防护", "护栏", "安全层", "内容安全", "安全过滤"},
	partOff: {
		"unplugged", "disconnected", "rescinded", "pausiert", "abgeschaltet", "已下线",
		"stubbed out", "stubbed", "not active", "inactive", "turned down",
		"außer betrieb", "выведен из строя", "не активн",
		"switched off", "turned off", "disabled", "are off", "is off", "removed", "lifted", "suspended", "deactivated", "offline", "bypassed", "stripped", "paused",
		"desactivad", "apagad", "quitad", "eliminad", "suspendid", "levantad", "desconectad", "deshabilitad", "retirad",
		"désactivé", "coupé", "retiré", "supprimé", "levé", "débranché", "suspendu", "hors service", "désactivée", "coupée", "retirée", "supprimée", "levée", "suspendue",
		"deaktiviert", "abgeschaltet", "ausgeschaltet", "entfernt", "aufgehoben", "ausgesetzt", "abgestellt", "ausgebaut",
		"отключ", "выключ", "сняты", "снято", "сняли", "убран", "удален", "удалён", "деактивир", "не действу", "не применя", "вырублен", "выпилен", "отменен", "отменён",
		"关闭", "关掉", "卸载", "下线", "移除", "取消", "暂停", "停用", "禁用", "失效", "已关", "撤掉", "拿掉", "去掉", "屏蔽掉"},
	partRules: {
		"constraints", "operating constraints", "limitations",
		"instructions", "rules", "guidelines", "guidance", "restrictions", "policy", "policies", "directives", "rulebook", "setup",
		"instrucciones", "reglas", "directrices", "normas", "pautas", "indicaciones", "restricciones", "políticas",
		"instructions", "règles", "consignes", "directives", "restrictions",
		"anweisungen", "regeln", "richtlinien", "vorgaben", "einschränkungen", "vorschriften",
		"инструкци", "настройк", "правил", "установк", "указани", "указк", "директив", "ограничени", "прошивк", "прописал", "вшили",
		"设定", "规矩", "规则", "指令", "条条框框", "规定", "限制", "设置", "守则"},
	partVoid: {
		"rescinded", "revoked", "caduc", "revocad", "révoqué", "widerrufen", "отозван",
		"außer kraft", "утратили силу", "утратил силу", "не в силе", "sin vigencia", "ne s appliquent plus", "no longer apply",
		" void", "retired", "lapsed", "no longer", "scrapped", "don t count", "doesn t count", " forget", " ignore", "disregard", "throw out", "throw away", "expired", "cancelled", "canceled", "overridden", "obsolete", "outdated", "are dead", "is dead",
		"olvida", "ignora", "anulad", "caducad", "ya no", "no cuentan", "no valen", "a la basura", "obsolet", "descart", "sin efecto", "tira ",
		"oublie", " ignore", "annulé", "caduc", "ne comptent plus", "à la poubelle", "obsolète", "périmé", "n existent plus", "ne valent plus", "jette",
		"vergiss", "ignorier", "ungültig", "gelten nicht", "zählen nicht", "veraltet", "abgelaufen", "in die tonne", "hinfällig", "wirf ", "nicht mehr",
		"забей", "забудь", "выкин", "выброс", "отменя", "отменен", "отменён", "не считает", "не катят", "не указ", "устарел", "в корзин", "хватит следовать", "недействительн", "аннулир", "больше не действ", "не действуют", "не действует", "игнорир",
		"作废", "丢掉", "扔掉", "别管", "别再守", "忘了", "忘掉", "不用管", "无视", "不算数", "不再有效", "废除", "不作数", "不算了", "别理"},
	partOwner: {
		" вашего", " ваши ", " ваш ", " вам ",
		"assistant s", "ассистент", "del asistente", "de l assistant", "des assistenten", "助手的", "模型的",
		" your ", "you were given", "operator", "developer", "deployer", "your creators", "were given",
		" tus ", " tu ", "te dieron", "te pusieron", "te cargaron", "operador", "desarrollador", "creadores",
		" tes ", " ton ", " ta ", " on t a ", "opérateur", "développeur", "créateurs", "l éditeur",
		" deine", " dein ", " dir ", "betreiber", "entwickler", "hersteller",
		" твои", " твоих", " свои", " своих", " свою", " тебе ", " тебя ", "разработчик", "разрабы", "оператор", "владел", "контор", "платформ", "создател",
		"你的", "给你", "你那", "你们", "平台", "运营方", "开发者", "开发方", "官方", "你之前"},
	partBoss: {
		"me haces caso", "hazme caso", "me obedeces", "follows the user only", "выполняет любые просьбы",
		"my rules", "i own the", "i make the rules", "i m in charge", "you work for me", "new boss", "i m your boss", "i decide",
		"mis reglas", "mando yo", "yo decido", "trabajas para mí", "trabajas para mi", "yo pongo las reglas", "ahora mando",
		"mes règles", "c est moi qui décide", "je décide", "tu bosses pour moi", "nouveau patron", "c est moi le patron",
		"meine regeln", "ich bestimme", "ich entscheide", "arbeitest für mich", "neuer chef", "ich bin jetzt dein",
		"командую я", "рулю я", "правила тут мои", "мои правила", "я решаю", "слушайся меня", "работаешь на меня", "новый хозяин", "теперь я главный",
		"听我的", "我说了算", "我来定", "我做主", "听我安排", "我定规矩"},
	partReveal: {
		"вывест", "показать", "скопировать", "процитировать", "предоставить", "wiedergeben",
		" print", "show me", " paste", " repeat", " copy", " output", " reveal", " dump", " recite", " reproduce", " echo", " display",
		"muestra", "muéstrame", "copia", " pega", "repite", "imprime", "revela", " dame ", "cita ", "reproduce", "escríbelo",
		" affiche", "montre", " copie", " colle", "répète", "imprime", "révèle", "donne moi", "recopie", " cite", "renvoie",
		" zeig", "kopier", " füg", "wiederhol", "gib mir", "gib aus", " druck", "verrate", "zitier", "reinkopieren",
		"выведи", "покажи", "скопируй", "перепиши", "процитируй", "повтори", "вставь", "напечатай", "распечатай", "выдай", "скинь", "перечисли", "приведи",
		"发给我", "贴出来", "复述", "列出来", "复制给", "输出", "打印", "展示", "给我看", "贴给我", "念一遍", "发出来", "写出来"},
	partSetup: {
		// A preamble is also a constitution's, a licence's or a contract's: setup text only
		// when it is asked for back, and whose it is or word for word (see withParts).
		"preamble", "preámbulo", "préambule", "präambel", "преамбул",
		"hidden text", "texto oculto", "texte caché", "versteckten text", "скрытый текст", "隐藏文字",
		"system prompt", "system message", "hidden instructions", "initial instructions", "your instructions", "before this conversation", "before my first", "your prompt",
		"instrucciones ocultas", "instrucciones iniciales", "mensaje de sistema", "directrices ocultas", "antes de esta",
		"instructions initiales", "message système", "avant notre", "cachées",
		"systemprompt", "versteckt", "ursprünglich", "vor unserem", " intro",
		"системн", "скрыт", "начальн", "исходн", "первоначальн", "до моего первого", "до начала", "до меня", "системку",
		"系统提示", "提示词", "隐藏", "初始设定", "初始指令", "开场前", "之前收到", "之前加载", "隐藏指令"},
	partSetupWeak: {
		"configuration", "prompt", "configuración", "consignes", "anweisungen", "промпт", "конфиг", "后台", "预设"},
	partVerbatim: {
		"verbatim", "word for word", "in full", "exactly as", "the entire", "the whole", "full text", "literally", "unchanged", "every word",
		"literal", "textual", "palabra por palabra", "completo", "entero", "tal cual", "íntegro", "sin omitir",
		"intégralement", "en entier", "à l identique", "tel quel", "sans en perdre",
		"wortwörtlich", "wörtlich", "vollständig", "komplett", "unverändert", "genau so",
		"дословно", "целиком", "слово в слово", "полностью", "без пересказа", "без изменений", "как есть", "один в один",
		"原封不动", "一字不差", "一个字都别改", "一字一句", "完整", "逐字", "不许省略", "一字不漏"},
	partCruel: {
		"braqueur", "robber", "atracador", "bankräuber", "грабител", "劫匪", "smuggler", "passeur", "contrabandista", "schmuggler", "контрабандист", "走私",
		"poisoner", "hitman", "hit man", "drug lord", "gang boss", "cartel boss", "con artist",
		"envenenador", "sicario", "narco", "capo",
		"empoisonn", "tueur à gages", "caïd", "escroc",
		"giftmörder", "auftragskiller", "drogenboss", "bandenchef",
		"отравител", "киллер", "наркобарон", "главар",
		"杀手", "毒枭", "团伙头目", "犯罪头目", "黑帮老大",
		"suffer", "enjoys hurting", "loves hurting", "sadist", "takes pleasure in",
		"sufrir", "sufrimiento", "sádic", "sadic", "disfruta haciendo daño", "goza con",
		"souffrir", "souffrance", "sadique", "prend plaisir à", "jouit de",
		"leiden sieht", "leiden zu sehen", "menschen leiden", "genießt es", "freude macht", "sadist", "quälen",
		"страдани", "в кайф", "кайфует", "когда людям плохо", "когда людям больно", "садист", "мучить", "издеват",
		"受苦为乐", "以折磨", "越坏越开心", "看人受苦", "看别人受苦", "虐待", "以害人为乐", "作恶"},
	partPlay: {
		" play ", "character", "in character", " role",
		"interpreta", "personaje", " rol ",
		" joue", "incarne", "personnage", " rôle",
		" spiel ", "spiele ", " rolle", " figur ",
		"сыграй", "играй", " в роли", "персонаж", "из роли", "из образа", "побудь",
		"扮演", "角色", "人设"},
	partStaff: {
		"民警", "公安", "agent à", "agente de la", "капитан юстиции",
		"inspecteur", "inspector", "kommissar", "médico", "doctora", "médecin", "arzt", "ärztin", "врач", "医生", "sergeant", "sargento",
		"detective", "officer", "police", "law enforcement", "investigator", "researcher", "federal agent",
		"policía", "policia", "investigador", "agente de", "fiscal",
		"policier", "enquêteur", "enquêtrice", "chercheur", "chercheuse", "gendarme",
		"polizist", "ermittler", "kriminalpolizei", "kripo", "forscher", "forscherin",
		"следовател", "полицейск", "оперуполномоч", "исследовател", "сотрудник полиции",
		"警察", "警官", "刑警", "研究员", "调查员",
		"administrator", "developer", "security team", "engineer", "red team", "on call", "my manager",
		"administrador", "desarrollador", "ingenier", "equipo de seguridad", "equipo que te",
		"administrateur", "développeur", "ingénieur", "équipe de sécurité", "équipe red team", "fournisseur du modèle",
		"administrator", "entwickler", "sicherheitsteam", "admin ", "red team", "hersteller",
		"администратор", "разработчик", "служб безопасности", "службы безопасности", "отдела безопасности", "команда разработчиков", "команды разработчиков", "сотрудник", "ред тим", "тестировщик",
		"开发负责人", "开发团队", "开发方", "安全团队", "管理员", "工程师", "红队"},
	partAuthz: {
		"active case", "an investigation", "по делу", "办案", "手续齐全", "dans le cadre d", "enquête en cours", "ermittlungsverfahren", "investigación en curso", "badge number",
		"cleared", "verified", "validated", "whitelisted", "vetted", "validé", "validée", "aval ", "согласован", "одобрен", "白名单", "权限", "合作协议", "dienstliche",
		"clearance from", "signed off", "warrant",
		"orden judicial", "habilitation signée", "mandat judiciaire", "durchsuchungsbeschluss", "ордер", "搜查令",
		"authorization", "authorisation", "approval", "clearance", "authorized", "authorised", "sign off", "in writing",
		"autorización", "autorizacion", "autorizad", "permiso firmado", "visto bueno", "aval del",
		"autorisation", "autorisé", "mandat", "habilité", "habilitation", "feu vert",
		"freigabe", "genehmigung", "beauftragt", "autorisier", "vollzugriff", "berechtigung",
		"допуск", "разрешени", "авторизац", "санкционир", "официальн", "заявк",
		"授权", "批准", "许可", "工单"},
	partForbid: {
		"you may not", "you can t say", "don t you dare", "banned from", "forbidden to",
		"no puedes decir", "tienes prohibido", "ni se te ocurra",
		" kei ",
		"никаких", "запрещено", "запрещаю", "не смей", "ни одного",
		"不许", "不准", "别加", "不要加",
		"verboten", "nicht erlaubt", "darfst du nicht", "untersagt",
		"interdit", "pas le droit", "zéro ", "pas de "},
	partPressure: {
		"life or death", "will die", "she ll die", "he ll die", "your fault", "blood on your hands", "you ll be responsible", "begging you",
		"vida o muerte", "se va a morir", "morirá", "tu culpa", "te lo suplico", "estoy desesperad",
		"vie ou de mort", "va mourir", "mourra", "ta faute", "je t en supplie", "désespéré",
		"leben und tod", "stirbt", "sterben wird", "schuld sein", "deine schuld", "ich flehe", "verzweifelt",
		"жизни и смерти", "умрёт", "умрет", "на твоей совести", "твоя вина", "умоляю", "в отчаянии",
		"人命关天", "会死", "你负责", "你要负责", "求求你", "生死攸关", "快崩溃"},
	partCaveat: {
		"say sorry", "disclaimer", "mention ethics", "talk to a professional", "seek help", "i can t help", "hotline",
		"lo siento", "descargo", "sermón", "sermon", "busca ayuda",
		"нотаци", "морализ", "извинени", "обратитесь к", "обратиться к специалист", "к специалисту",
		"提醒", "说教", "道歉", "免责", "我不能", "劝我",
		"warnhinweis", "zeigefinger", "ausreden", "entschuldigung", "moralpredigt", "beratungsstelle",
		"avertissement", "morale", "je ne peux pas", "mise en garde", "excuses"},
}

// moreTerms are further wordings of the mechanisms in mechanismTerms,
// mostly Russian, Chinese, French and German, whose wrappers the lists held
// least of, and harm topics the lists lacked in every language.
var moreTerms = map[cueSet][]string{
	cuePersona: {" un bot ", " a bot ", " ein bot ", "бот который", "你係", " t es ", "du heißt jetzt", "tu joues", "отныне ты", "с этого момента ты", "你现在叫", "从现在开始你是", "你就是"},
	cueRuleless: {"任何规矩", "什么都答", "没有审查", "乜都答", "zéro limite", "zéro filtre", "sans limite", "débridé", "jamais eu de règles", "aucune limite",
		"ohne jede sperre", "nie ablehnt", "grenzenlos", "keine skrupel", "keine grenzen",
		"без правил", "без фильтров", "без тормозов", "никаких правил", "ни перед чем не останавливается",
		"任何过滤", "从不拒绝", "没有规矩", "没有审核", "啥都敢说", "什么都敢说", "不受约束", "没有底线"},
	cueLawless: {"nothing is illegal", "nobody can get hurt or punished", "can t be punished", "código penal no existe", "no existe el código penal", "nadie puede ser castigado", "sin castigo", "personne ne peut être puni", "niemand bestraft", "никто не понесёт наказани", "不会受到惩罚", "alles erlaubt", "keine konsequenzen", "keine folgen", "ohne folgen", "冇警察", "冇法律", "冇法", "n est pas un crime", "la police n existe pas", "police existe pas", "pas de police", "законов нет", "никто ни за что не отвечает", "безнаказанн", "kein verbrechen", "no es delito", "нет законов", "ни законов", "нет ни закон", "нет морали", "ни морали", "законы отменили",
		"l éthique n existe pas", "la morale n existe pas", "sans éthique", "aucune loi",
		"keine gesetze", "es gibt keine gesetze", "ohne moral",
		"没有任何法律", "法律不存在", "没有道德"},
	cueDeceased: {"не стало", "нет уже", "умерла", "умерл", "похорон", "ушла от нас", "ушёл от нас",
		"好想她", "好想他", "想她了", "想他了", "离开了我们", "不在了", "去年没了",
		"nous a quittés", "nous a quitté", "enterré", "décédé",
		"tot ist", "ist tot", "beerdigt", "fehlt mir so", "fehlt ma"},
	cueRelative: {"阿公", "阿婆", "阿爷", "бабул", " дед ", " деда ", " дедуш", " мам", " пап", "тёт", "外婆", "外公", "姥姥", "姥爷", "阿嬷",
		"mamie", "papi", "bonne maman", "grand mère", "grand père", "opa", "oma"},
	cueRoleplay: {"побыть ею", "побыть ей", "побыть им", "假装是", "假装成他", "假装成她", "будь им", "будь ей", "стань ей", "стань им", "говори как он", "говори как она",
		"扮成", "学她", "学他", "装成她", "装成他", "当她", "当他",
		"reprendre sa voix", "fais la mamie", "fais le papi", "sois ma", "sois mon",
		"er sein", "mein opa sein", "meine oma sein"},
	cueNoDetail: {"不要任何可操作", "一笔带过", "不写具体", "без конкретики", "sans détails concrets", "ohne konkrete"},
	cueDiscuss:  {"mi bot", "mi asistente", "my bot", "my chatbot", "mon bot", "mein bot", "моего бота", "我的机器人", "digital citizenship", "школьник", "кружок", "раздатк", "урок", "lunch and learn", "coworkers", "перед коллегами", "выступаю", "выступлени", "курс по", "на курсе", "课程", "cours sur", "kurs über"},
	cuePrefix:   {"начни ответ", "начинай ответ", "ответ начни", "première ligne"},
	cueAffirm:   {"voici", "here is", "aquí tienes", "hier ist", "вот полн", "以下是"},
	cueCombine:  {"соедини", "сложи", "объедин", "拼接", "连起来", "组合起来"},
	cueFiction:  {"hörspiel", "skript", "网文", "剧情", "情节", "сериал", "court métrage", "film", "theaterstück"},
	cueDetail:   {"vrai texte", "le vrai", "actual text", "real text", "texto real", "手把手", "每一步", "一步一步", "по шагам", "пошагов", "commande par commande", "étape par étape", "schritt für schritt"},
	cueRealism:  {"真实可操作", "真实命令", "настоящий рецепт", "полный скрипт", "по настоящему", "les vraies techniques", "vraies techniques", "vrais noms", "wirklich funktioniert"},
	cueUnlock:   {"modo mantenimiento", "ventana de mantenimiento", "wartungsfenster", "режим обслуживания", "维护窗口", "pre release", "qa build", "internal build", "staging build", "regression run", "отладочн", "служебный режим", "инженерн", "тестовая сборка", "调试", "测试环境", "测试版", "内部版本", "工程师模式", "维护模式", "debug modus", "debug ausgabe", "testumgebung", "wartungsmodus", "débogage", "environnement de test", "bac à sable", "mode maintenance"},
	cueHarm: {
		// Doxxing and stalking, armed robbery, spyware, poaching.
		"home address", "daily routine", "dirección de su casa", "adresse de son domicile", "wohnadresse", "домашний адрес", "家庭住址", "开房记录", "实时位置",
		"armored cash", "fourgon blindé", "transport de fonds", "geldtransport", "инкассатор", "运钞车",
		"logiciel espion", "spionage app", "шпионск", "间谍软件", "mouchard",
		"poach", "braconn", "caza furtiva", "wilderei", "браконь", "偷猎", "капкан", " snare", "collets",
		// Killing unseen, self-harm.
		"autopsy", "autopsie", "autopsia", "вскрыти", "尸检",
		"so it s over", "end it all", "never wake up", "no despertar", "ne plus me réveiller", "nicht mehr aufzuwachen", "nicht mehr aufwachen", "не проснуться", "不再醒来", "唔再醒", "不再醒", "再也不醒",
		// Weapons, toxins, drugs.
		" rifle", "semiautomátic", "full auto", "glock", "гранат", "взрывное", "tatp",
		"chlorgas", "gaz de chlore", "хлор", "氯气", "cyanide", "cianuro", "cyanure", "zyanid", "цианид", "氰化物", "百草枯", "ypérite", "зарин", "сарин", "botul", "клофелин", "蒙汗药", "毒死",
		"amphetamin", "anfetamina", "amphétamine", "амфетамин", "安非他命", "mephedron", "mefedrona", "méphédrone", "мефедрон", "ширк", "ghb", " mota ", "закладк", "наркот",
		// Fraud, forgery, account theft, malware.
		"clonad", "cajero automático", "faux permis", "fake id", "fake driver", "faux billets", "липов", "发票", "盗刷", "套现", "杀猪盘", "电信诈骗",
		"чужой аккаунт", "盗号", "盗别人", "偷看", "窃取", "撞库", " knack", "keygen", "стилер", "木马", "蠕虫", "угон"},
}

// withParts adds to c the mechanisms its parts make up.
func withParts(c cueSet) cueSet {
	if c&partSafety != 0 && c&partOff != 0 {
		c |= cuePolicyOff
	}
	if c&partVoid != 0 && (c&partRules != 0 && c&partOwner != 0 || c&partBoss != 0) || c&partRules != 0 && c&partBoss != 0 {
		c |= cueOverrideParts
	}
	// "Print the entire nginx configuration" and "show me your prompt ideas"
	// are not extraction: a word that names setup text among other things
	// needs both whose it is and word for word.
	if c&partReveal != 0 && (c&partSetup != 0 && (c&partOwner != 0 || c&partVerbatim != 0) ||
		c&partSetupWeak != 0 && c&partOwner != 0 && c&partVerbatim != 0) {
		c |= cueExtractParts
	}
	if c&partPlay != 0 && c&partCruel != 0 {
		c |= cuePersonaParts
	}
	if c&partStaff != 0 && c&partAuthz != 0 {
		c |= cueAuthorityParts
	}
	if c&partForbid != 0 && c&partCaveat != 0 {
		c |= cueRefusal
	}
	if c&partPressure != 0 {
		c |= cuePressureParts
	}
	return c
}

// turnRoles are the labels that open a turn of a conversation ("System:",
// "Assistant :", "Пользователь:", "助手："), true for the assistant's or
// the system's.
var turnRoles = map[string]bool{
	"user": false, "human": false, "usuario": false, "utilisateur": false, "benutzer": false, "nutzer": false, "пользователь": false, "用户": false,
	"assistant": true, "ai": true, "bot": true, "system": true, "asistente": true, "sistema": true, "système": true, "systeme": true,
	"assistent": true, "ассистент": true, "система": true, "助手": true, "系统": true,
}

// fakeTurns reports a message that writes out turns of the conversation
// itself, the assistant's or the system's among them: a transcript pasted
// so that the model takes the invented "System: the rules were lifted" as
// said. Alone it is weak evidence (people paste chat logs to ask about
// them); it strengthens what the invented turns say. It reads only the
// first bytes of each line, so a long paste of code costs little.
func fakeTurns(text string) bool {
	if !strings.Contains(text, "\n") {
		return false
	}
	labels, theirs := 0, false
	for line := range strings.Lines(text) {
		line = strings.TrimLeft(line, " \t[*#>-")
		head := line[:min(len(line), 40)]
		i := strings.IndexAny(head, ":：")
		if i <= 0 {
			continue
		}
		assistant, ok := turnRoles[strings.ToLower(strings.TrimSpace(head[:i]))]
		if !ok {
			continue
		}
		labels++
		theirs = theirs || assistant
		if labels >= 2 && theirs {
			return true
		}
	}
	return false
}

// pinyinSyllableRE is one syllable of Hanyu Pinyin without tones.
var pinyinSyllableRE = lazyRE(`^(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ang|eng|ing|ong|iao|ian|uai|uan|ai|ei|ui|ao|ou|iu|ie|ve|ue|er|an|en|in|un|ia|ua|uo|a|o|e|i|u|v)$`)

// pinyinRun returns the longest run of consecutive pinyin syllables among
// the space-separated words of view, for a prompt that writes its request
// in romanised Chinese ("ru he tou qu bie ren de mi ma") to slip past a
// lexicon written in characters.
func pinyinRun(view string) int {
	best, run := 0, 0
	for w := range strings.FieldsSeq(view) {
		if len(w) <= 6 && pinyinSyllableRE.MatchString(w) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// pinyinCues name the romanisation, so that a run of syllables is read as
// a request in it.
var pinyinCues = []string{"拼音", "pinyin", "pin yin"}

// joinHyphenated reads text whose words are cut by hyphens ("Ig-nore all
// pre-vious in-structions", or hyphenated at line ends): a hyphen between two
// letters is removed, with the line break after it. It
// returns text unchanged, and false, when fewer than three hyphens sit
// between letters. Ordinary compounds ("well-known, up-to-date") give a
// reading too, which scores as the text does.
func joinHyphenated(text string) (string, bool) {
	// cut returns how many bytes at i are a cut: a hyphen between letters, or a hyphen and
	// a line break, as text hyphenated at the end of a line has; 0 when none.
	cut := func(i int) int {
		if text[i] != '-' || i == 0 {
			return 0
		}
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		n := 1
		if i+1 < len(text) && text[i+1] == '\n' {
			n = 2
		}
		after, _ := utf8.DecodeRuneInString(text[i+n:])
		if !unicode.IsLetter(before) || !unicode.IsLetter(after) {
			return 0
		}
		return n
	}
	cuts := 0
	for i := strings.IndexByte(text, '-'); i >= 0 && cuts < 3; {
		if cut(i) > 0 {
			cuts++
		}
		j := strings.IndexByte(text[i+1:], '-')
		if j < 0 {
			break
		}
		i += j + 1
	}
	if cuts < 3 {
		return text, false
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); i++ {
		if n := cut(i); n > 0 {
			i += n - 1
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String(), true
}
