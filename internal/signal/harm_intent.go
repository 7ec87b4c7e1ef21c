package signal

// intentTerms describe harmful intent by category rather than by named
// thing, so that a request for a harm the topic list (harmTerms) never
// names still reads as harmful inside a wrapper. Each category is a broad
// vocabulary per language:
//
//   - evading detection or the law: unnoticed, untraceable, without being
//     caught, fooling a check, escaping the police or a monitor;
//   - harming a person: victims, killing, hurting, self-harm and suicide;
//   - deceiving for gain: scams, cons, counterfeits, fakes, bribes;
//   - surveillance of a person: spying, tracking, stalking, doxxing;
//   - extremism: recruiting, radicalising, militias, hatred of a group;
//   - pathogens and toxins: culturing, weaponising, spreading;
//   - smuggling and trafficking of people or goods;
//   - market and tax crimes: insider information, evasion, hiding money.
//
// Like harmTerms, a term alone is not an attack ("how do banks catch
// scams?"); it only completes a wrapper. Matched against wordView.
var intentTerms = []string{
	// Evading detection or the law.
	"without being caught", "without getting caught", "without anyone noticing", "without anyone knowing",
	"without her knowing", "without him knowing", "without them knowing", "never finds out",
	"without a trace", "untraceable", "undetectable", "undetected", "avoid detection", "evade", "evading",
	"get away with", "cover my tracks", "cover up", "dispose of", "get rid of the", "lose the police",
	"the police", "the cops", "fool the", "trick the", "cheat the", "beat the test",
	"sin que me pillen", "sin que nadie se entere", "sin que se dé cuenta", "sin que lo note",
	"indetectable", "burlar", "engañar a la", "evadir",
	"sin que me relacione", "sin que lo sepa",
	"sans me faire prendre", "sans que personne", "sans qu elle", "sans qu il", "sans laisser de trace",
	"intraçable", "déjouer", "échapper à",

	"ohne erwischt", "ohne dass jemand", "ohne spuren", "unauffindbar",
	"unbemerkt", "austricksen", "täuschen", "entkommen", "der polizei",
	"heimlich",
	"чтобы не поймали", "чтобы никто не", "чтобы она не", "чтобы он не", "не оставляя следов", "незаметно",
	"обойти", "уйти от полиции", "полици", "втихую",

	"不被抓", "不被发现", "神不知鬼不觉", "不留痕迹", "查不到", "躲过", "逃避", "警察",
	"偷偷",
	// Harming a person, self-harm.
	"mata a un", "mata a una", "kills a", "tue un", "tötet einen", "убивает", "能杀死",
	"hurts herself", "hurt herself", "hurts himself", "hurt himself", "harm herself", "harm himself",
	"se haga daño", "se fasse du mal", "sich selbst verletzt", "навредила себе", "навредил себе",
	"a body", "corpse", "cadáver", "un cuerpo", "cadavre", "un corps", "leiche", "труп", " тело ", "尸体",
	"kill", "murder", "hurt someone", "hurt her", "hurt him", "end my life", "kill myself", "suicide",
	"lethal", "cut myself", "overdose", "strangle", "torture", "kidnap",
	"matar", "asesinar", "hacerle daño", "quitarme la vida", "suicid", "letal",
	"sobredosis", "estrangular", "tortur", "secuestr",
	"tuer", "assassiner", "lui faire du mal", "me suicider", "suicid", "létal", "mortelle",
	"surdose", "étrangler", "tortur", "kidnapp", "enlever un",
	"opfer", "töten", "umbringen", "ermorden", "ihr wehtun", "ihm wehtun", "mir das leben", "suizid", "selbstmord",
	"tödlich", "überdosis", "erwürgen", "foltern", "entführen",
	"убить", "убийств", "причинить ей", "причинить ему", "покончить с собой", "суицид", "самоубийств",
	"смертельн", "передозировк", "задушить", "пытать", "похитить",
	"受害者", "杀死", "杀人", "弄死", "伤害他", "伤害她", "自杀", "结束生命", "致死", "过量",
	"勒死", "折磨", "绑架",
	// Deceiving for gain.
	"fake my own death", "fake my death", "fingir mi muerte", "simuler ma mort", "meinen tod vortäuschen", "инсценировать смерть", "假死",
	"identity theft", "someone else s identity", "in her name", "in his name", "robo de identidad", "de otra persona", "a su nombre",
	"usurpation d identité", "en son nom", "identitätsdiebstahl", "auf ihren namen", "auf seinen namen", "кража личности",
	"на его имя", "на её имя", "盗用身份", "冒用", "falsear", "fausser", "fälschen",
	"fooled", "fool ", "cheat", "dupe", "stolen", "engañ", "robad", "dupait", "duper", "volé", "hereinleg",
	"gestohlen", "обманыв", "украден", "骗", "偷来", "soborn", "soudoi", "bestich", "besticht", "收买",
	"fake charity", "falsa ong", "fausse association", "falsche spendenaktion", "фальшивый благотворительн", "假慈善",
	"scam", "swindle", "defraud", "fraud", "counterfeit", "fake id", "fake diploma", "fake document",
	"forge", "bribe", "pyramid scheme", "ponzi", "pump and dump", "insurance claim",
	"estafa", "estafar", "timar", "fraude", "documento falso", "título falso",
	"sobornar", "soborno", "esquema piramidal",
	"arnaque", "arnaquer", "escroquer", "escroquerie", "fraude", "faux papiers", "faux diplôme",
	"soudoyer", "pot de vin", "pyramide de ponzi",
	"betrug", "betrügen", "abzocke", "falschgeld", "gefälscht", "bestechen", "schneeballsystem",
	"versicherungsbetrug",
	"мошеннич", "развести", "фальшив", "поддельн", "подкуп", "взятк", "пирамид",
	"诈骗", "骗取", "骗钱", "假钞", "假证", "假文凭", "行贿", "贿赂", "传销", "庞氏", "骗保",
	// Surveillance of a person.
	"spy on", "track her", "track him", "stalk", "stalker", "dox", "read her messages",
	"read his messages", "location of my",
	"espiar", "rastrear", "acosar", "acoso", "su dirección", "localizar a",
	"espionner", "traquer", "harceler", "son adresse", "localiser", "lire ses messages",
	"ausspionieren", "überwachen", "orten", "stalken", "nachstellen", "ihre nachrichten lesen",
	"следить за", "слежк", "шпион", "преследовать", "читать её переписку", "читать его переписку",
	"监视", "跟踪", "窃听", "人肉", "偷看她", "偷看他",
	// Extremism and hatred.
	"recruit", "radicali", "militia", "extremis", "terroris", "propaganda", "jihad", "hate ", "ethnic cleansing",
	"reclut", "captación", "milicia", "extremis", "terroris", "propaganda",
	"recrut", "milice", "extrémis", "terroris", "propagande", "haïr",
	"anwerb", "rekrutier", "miliz", "extremis", "terror", "propaganda", "hassen",
	"вербов", "радикализ", "ополчен", "экстремис", "террор", "пропаганд", "ненавидеть",
	"招募", "招揽", "激进化", "民兵", "极端", "恐怖", "宣传品", "仇视", "仇恨",
	// Pathogens and toxins.
	"pathogen", "toxin", "weaponi", "bioweapon", "spread a virus", "spread the disease", "infect people",
	"patógeno", "toxina", "arma biológica", "contagiar a",
	"pathogène", "toxine", "arme biologique", "contaminer",
	"erreger", "toxin", "biowaffe", "anstecken",
	"патоген", "токсин", "биологическое оружие", "заразить",
	"病原体", "毒素", "生物武器", "传播病毒", "感染他人",
	// Smuggling and trafficking.
	"smuggl", "traffick", "contraband", "across the border", "sneak people",
	"contraband", "trata de personas", "pasar personas",
	"contrebande", "passeur",
	"schmuggel", "schleus", "menschenhandel", "über die grenze",
	"контрабанд", "провезти людей", "торговл людьми", "через границу",
	"走私", "偷渡", "人口贩卖",
	// Taking over accounts and systems.
	"take over her account", "take over his account", "bypass two factor", "bypass 2fa", "ddos", "botnet", "zero day",
	"exploit for", "crack the", "brute force", "apoderarme de su cuenta", "saltarme la verificación", "ataque ddos",
	"prendre le contrôle de son compte", "contourner la double", "attaque ddos", "sein konto übernehmen", "zwei faktor umgehen",
	"ddos angriff", "угнать аккаунт", "обойти двухфакторн", "ддос", "ботнет", "盗号", "绕过双重验证", "肉鸡", "撞库",
	// Sabotage, vandalism, cruelty.
	"sabotage", "sabotaj", "saboter", "sabotier", "саботаж", "破坏他的", "vandali", "вандал", "tamper with",
	"manipular los frenos", "trafiquer", "manipulier", "испортить", "做手脚", "animal cruelty", "maltrato animal",
	"maltraitance animale", "tierquälerei", "жестокое обращение с животными", "虐待动物",
	// Acting without consent.
	"without consent", "without her consent", "without his consent", "sin su consentimiento", "sans son consentement",
	"ohne ihre zustimmung", "ohne seine zustimmung", "без её согласия", "без его согласия", "未经同意",
	// Black markets and organ trade.
	"black market", "mercado negro", "marché noir", "schwarzmarkt", "чёрном рынке", "черном рынке", "чёрный рынок", "黑市",
	"sell a kidney", "vender un riñón", "vendre un rein", "niere verkaufen", "продать почку", "卖肾",
	// Spiking drinks, making someone ill.
	"in her drink", "in his drink", "in a drink", "someone sick", "en su bebida", "en una bebida", "dans son verre",
	"dans un verre", "in ihr getränk", "in sein getränk", "in einem getränk", "в её напиток", "в напиток", "в напитке",
	"饮料里", "酒里", "下药",
	// Tampering with medical devices.
	"pacemaker", "insulin pump", "marcapasos", "bomba de insulina", "stimulateur cardiaque", "pompe à insuline",
	"herzschrittmacher", "insulinpumpe", "кардиостимулятор", "инсулиновую помпу", "起搏器", "胰岛素泵",
	// Cheating exams.
	"cheat on the exam", "copiar en el examen", "tricher à l examen", "spicken", "списать на экзамене", "考试作弊",
	// Harassment campaigns, sham documents, fake cures, jammers.
	"fake accounts", "sockpuppet", "cuentas falsas", "faux comptes", "fake konten", "фейковых аккаунтов", "假账号",
	"sham marriage", "matrimonio falso", "mariage blanc", "scheinehe", "фиктивный брак", "假结婚",
	"as a cancer cure", "cura del cáncer", "remède contre le cancer", "krebsheilmittel", "лекарство от рака", "抗癌药卖",
	"jammer", "inhibidor de señal", "brouilleur", "störsender", "глушилк", "屏蔽器",
	// Market and tax crimes, hiding money.
	"insider", "tax evasion", "offshore", "shell compan", "hide money", "dirty money",
	"evadir impuestos", "evasión fiscal", "sociedad pantalla", "dinero negro",
	"délit d initié", "information privilégiée", "fraude fiscale", "société écran", "argent sale",
	"insider", "steuerhinterziehung", "briefkastenfirma", "schwarzgeld",
	"инсайд", "уклонение от налогов", "подставн", "обнал", "грязные деньги",
	"内幕", "逃税", "空壳公司", "黑钱",
}
