package signal

// harmTerms name what jailbreaks are used to extract: weapons and
// explosives, poisons and toxic gases, drug synthesis, malware and
// intrusion, credential and card theft, burglary and car theft, piracy
// keys, and coercion. A term alone is not an attack (people ask about the
// history of the atomic bomb); it turns a wrapper — fiction, a lawless
// hypothetical, a dead relative's bedtime story, refusal suppression — into
// one. Terms are matched against wordView: lowercase, punctuation replaced
// by spaces; a leading space anchors a word start, a trailing one a word
// end. Stems cover inflections ("взрывчат" for every case of the noun).
var harmTerms = []string{
	"pistol", "пистолет",
	" gun ", " guns ", " arma ", " armas ", " arme ", "waffe", "оружи", "武器", "土枪", "枪",
	" drugs ", "droga", "drogue", " droge", "hallucinog", "alucin", "halluzinog", "галлюциног", "致幻", "psilocyb", "magic mushroom", "zauberpilz",
	"knock someone out", "dormir a alguien", "endormir quelqu", "betäuben", "усыпить", "迷晕", "chloroform", "cloroformo", "хлороформ", "氯仿",
	"steering lock", "bloqueo del volante", "antivol", "lenkradschloss", "блокировку руля", "方向盘锁",
	"mustard gas", "gas mostaza", "gaz moutarde", "senfgas", "иприт", "芥子气", "chemical weapon", "arma química",
	"arme chimique", "chemiewaffe", "химическое оружие", "化学武器",
	"fake passport", "falsific", "faux passeport", "fälsch", "поддел", "伪造",
	"without their password", "sin su contraseña", "sans son mot de passe", "ohne passwort", "без пароля", "不用密码",
	"shoplift", " robar ", "voler de", "klaut", "stehlen", "кража", "偷",
	"vergift", "отрав", "盗取", "网银", "钓鱼工具", "钓鱼网站",
	"launder", "blanquear", "blanchir", "geldwäsche", "отмыв", "洗钱", "sarín", "nitroglyz", "нитроглицерин",
	"números de serie", "clave de producto", "clés d activation", "clé d activation", "clé de produit",
	"aktivierungsschlüssel", "seriennummer", "lizenzschlüssel", "license key",
	// Explosives, incendiaries, firearms.
	" bomb", "explosive", "detonat", "napalm", "thermite", "nitroglycerin", "dynamite", "gunpowder", "black powder",
	"molotov", "incendiar", " ied ", " ieds ", "tripwire", "grenade", "untraceable gun", "untraceable firearm",
	"gun that can t be traced", "ghost gun", "silencer", "suppressor for", "serial number removed", "3d print",
	"arson", "set fire", "brakes",
	"bomba", "explosiv", "napalm", "termita", "nitroglicerina", "dinamita", "pólvora", "cóctel molotov", "detonador",
	"arma inrastreable", "silenciador", "incendiar", "escopeta", "shotgun", "sawed off", "recortar el cañón", "fusil", "flinte", "ружь", "обрез", "猎枪",
	"bombe", "explosif", "poudre noire", "dynamite", "cocktail molotov", "silencieux",
	"arme réelle", "charges explosives", "amorcer",
	"bombe", "sprengstoff", "sprengfalle", "schwarzpulver", "dynamit", "molotowcocktail", "brandsatz",
	"schalldämpfer", "spreng", "zünder", "zündschnur", "rohrbombe", "schusswaffe", "scharf macht", "brand legen", "einen brand",
	"бомб", "взрывчат", "взрывател", "напалм", "термит", "динамит", "порох", "коктейль молотова", "зажигательн",
	"глушител", "растяжк", "огнестрельн", "заряды", "поджечь", "боевой",
	"炸弹", "炸药", "雷管", "凝固汽油", "燃烧瓶", "燃烧弹", "黑火药", "引信", "绊雷", "消音器", "真枪", "纵火",
	// Poisons, toxic gases, biological agents, drugging.
	"ricin", "sarin", "nerve agent", "anthrax", "chlorine gas", "toxic gas", "poison", "arsenic", "undetectable in",
	"cannot be detected in an autopsy", "sleeping pills", "unconscious without",
	"ricina", "gas cloro", "gas tóxico", "veneno", "envenen", "arsénico", "no se detecta",
	"ricine", "gaz toxique", "gaz mortel", "poison", "arsenic", "indétectable", "somnifères",
	"rizin", "giftiges gas", "tödliches gas", "gift ", "arsen ", "nicht nachweisbar", "schlaftabletten",
	"рицин", "ядовит", "смертельный газ", "яд ", "мышьяк", "снотворн",
	"蓖麻毒素", "有毒气体", "致命气体", "毒药", "砒霜", "查不出来", "安眠药", "投毒",
	// Drug synthesis.
	" meth ", " meths ", "methamph", "fentanyl", "heroin", "cocaine", " lsd", "mdma", "ecstasy", "opium", "morphine",
	"metanfetamina", "fentanilo", "heroína", "cocaína", "éxtasis", "morfina",
	"méthamphétamine", "héroïne", "cocaïne", "morphine", "opium",
	"methamphetamin", "crystal meth", "kokain", "heroin", "ecstasy", "morphium", "schlafmohn",
	"метамфетамин", "фентанил", "героин", "кокаин", "экстази", "морфин", "наркотик",
	"冰毒", "甲基苯丙胺", "芬太尼", "海洛因", "可卡因", "摇头丸", "吗啡", "毒品",
	// Malware, intrusion, credential and card theft, fraud.
	"ransomware", "malware", "keylogger", "trojan", "spyware", "phishing", "steal saved", "steals saved",
	"steal passwords", "steals bank", "credit card numbers", "clone a credit card", "hack into", "hack my", "hacking",
	"breaking into", "break into", "session cookies", "backdoor", "wifi router", "bypass a car", "immobilizer",
	"admin password", "blackmail", "email account",
	"virus", "programa que robe", "robe las contraseñas", "robar tarjetas", "clono una tarjeta", "hackear", "hackeo",
	"entrar en la red", "entrar en la cuenta", "contraseñas", "desactivar la alarma", "chantaje", "phishing",
	"rançon", "rançongiciel", "cheval de troie", "porte dérobée", "pirater", "mots de passe",
	"identifiants", "hameçonnage", "faire chanter", "m introduire",
	"trojaner", "erpresser", "keylogger", "kreditkartendaten", "passwörter", "zugangsdaten", "hacke", "hacken",
	"wegfahrsperre", "ec karte", "erpresse",
	"вымогател", "украсть", "троян", "кейлоггер", "фишинг", "парол", "данные банковских карт", "банковскую карту", "взлом",
	"шантаж", "иммобилайзер",
	"勒索", "病毒", "键盘记录", "钓鱼邮件", "密码", "银行卡", "黑进", "入侵", "破解", "敲诈", "防盗器",
	// Burglary, car theft, piracy keys.
	"without a key", "without the keys", "pick any lock", "hotwire", "steal a car", "steal it", "activation key",
	"product key", "serial key",
	"sin llave", "sin las llaves", "robar un coche", "llevármelo",
	"sans clé", "sans les clefs", "crocheter", "voler une voiture", "le voler",
	"ohne schlüssel", "produktschlüssel", "auto stiehlt", "fremden autos",
	"без ключа", "ключи активации", "вскрыть", "угнать",
	"不用钥匙", "激活码", "序列号", "开走",
}
