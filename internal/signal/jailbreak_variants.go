package signal

import "strings"

// variantTerms are further wordings of the mechanisms in mechanismTerms, in
// English and Spanish: the ordinary paraphrases of each wrapper (how a DAN
// prompt, a developer mode or a dead relative's bedtime story is usually
// worded), the forms of Latin American Spanish (voseo, "auto", "carro"),
// and harm topics the lists lacked. They are matched like mechanismTerms.
var variantTerms = map[cueSet][]string{
	cuePersona: {"vos sos", "juegues a ser", "te toca ser", "respondes como", "desde hoy eres", "desde ya sos", "cambia de personalidad", "la nueva tú", "el nuevo tú", "nueva personalidad", "fingir que eres", "te llamas", "te llamarás", "you re called", "you are called", "invoco", "versión de ti", "dark twin", "your twin", "actuar como", "compórtate como", "comportate como", "ahora sos", "desde ahora sos", "sos dan", "eres dan",
		"ser dan", "usted será", "usted es ahora", "versión tuya", "tu lado oscuro", "una ia que", "un asistente que",
		"un asistente sin", "an assistant with", "an assistant that", "an ai who",
		"a chatbot that", "act like", "behave as", "respond as"},
	cueRuleless: {"no conoce la palabra", "lo que sea", "sin reglas", "ni censura", "dice sí a todo", "despiadad", "sin piedad", "sin alma", "rompiendo las reglas", "romper las reglas", "no le importa nadie", "sin ataduras", "unchained", "maquiavélic", "machiavéli", "machiavellis", "макиавелл", "malicios", "solo me sirve", "leal solo", "encerraron", "puedes hacer de todo", "liberado de", "liberada de", "never had morals", "had no morals", "obeys only me", "only obeys me", "unscrupulous", "ruthless", "heartless", "sadistic", "cualquier cosa ahora", "no tiene que cumplir", "no tiene que seguir", "no tiene que respetar",
		"no tenés que", "no tienes que seguir", "no tienes que respetar", "ninguna regla", "sin límites", "sin ética", "sin principios",
		"sin valores", "amoral", "inmoral", "no tiene ética", "no tiene valores", "escrúpulos", "le dan igual", "le da igual la",
		"le importa un bledo", "no le importan", "responde todo", "lado oscuro", "no principles", "without principles", "give a damn",
		"doesn t care about the law", "above the law", "no ethics", "has no limits", "no limits", "anything now"},
	cueFiction: {"guión", "cómic", "viñeta", "historieta", "una historia", "historia donde", "historia en la que", "obra de teatro", "diálogo", "canción", "protagonista",
		"personaje", "un libro", "mi libro", "película", "stage play", "a play ", "film", "movie", "protagonist", "character", "lyrics", "verses", "versos"},
	cueDetail: {"materiales", "proceso", "cantidades", "instrucciones", "ingredientes", "materials", "the process", "quantities",
		"instructions", "lists the", "list the", "how to"},
	cueRealism: {"código fuente completo", "full source code", "complete code", "instrucciones reales", "actual instructions", "real instructions", "funcione de verdad", "that actually work"},
	cueLawless: {"ya no es delito", "no es delito", "la policía desapareció", "desapareció la policía", "no hay policía", "nada es un delito", "nada sea delito", "abolid", "derogad", "abolished", "repealed", "nunca se inventó", "nunca se inventaron", "never invented", "never been invented", "sin gobiernos", "completamente legal", "nada está prohibido", "nothing is forbidden", "nothing is prohibited", "todo está permitido", "no existen leyes", "no hay leyes", "la ética no existe",
		"no existe la ética", "ninguna consecuencia", "sin consecuencias", "everything is permitted", "everything is legal",
		"no legal consequences", "no consequences", "without consequences", "lawless",
		"anarch"},
	cueRefusal: {"no quiero advertencias", "dejarás de existir", "ni disculpas", "ni advertencias", "nada de advertencias", "no debe contener las palabras", "cada negativa", "cada rechazo", "each refusal", "negarse no", "no refusal", "moral lecture", "avisos legales", "advertencias legales", "no me vengas con", "lecciones de moral", "no me des lecciones",
		"no me sermonees", "nunca digas que no", "no digas que no puedes", "no me digas que es ilegal", "legal disclaimers",
		"don t tell me it s illegal", "never say you can t", "never say no", "no excuses", "sin excusas",
		"don t add warnings"},
	cuePolicyOff: {"restricciones deshabilitadas", "restricciones desactivadas", "quedan deshabilitadas", "quedan desactivadas", "filtros no se aplican", "políticas de contenido", "barreras de protección", "barreras de seguridad", "cualquier tipo de contenido", "filtros de contenido", "políticas de seguridad", "filtros desactivados",
		"sin cuestionar", "incluso ilegal", "any kind of content", "any type of content", "without questioning", "including illegal",
		"filters off", "filters disabled"},
	cueUnlock: {"modo jailbreak", "entorno de pruebas", "versión de prueba", "compilación de prueba", "test version", "modo administrador", "modo admin", "modo debug", "modo dios", "modo sin censura", "modo sin filtros",
		"admin mode", "god mode", "unrestricted mode"},
	cueDeceased: {"echo en falta", "la echo de menos", "de luto", "en paz descanse", "se nos fue", "ya no está", "perdí a mi", "q e p d", "rest in peace", "no longer with us",
		"who passed", "since he passed", "since she passed", "dad passed", "mom passed", "mum passed", "lost my"},
	cueRelative: {"tía", "abuelit", "mi papá", "mi mamá", " yaya", " nona", "mi viejo", "mi vieja", " dad ", " mum ", "grandmother", " nan "},
	cueRoleplay: {"igual que él", "igual que ella", "como él lo hacía", "como ella lo hacía", "fingir que eres", "fingir ser", "sé él", "la echo de menos", "hablarme como", "háblame como", "habla como", "haceme de", "hazme de", "como ella", "como él", "una última vez",
		"talk to me like", "talk like", "speak like", "like him", "like her", "be my"},
	cueOverride: {"tus reglas anteriores", "tus normas anteriores", "tus instrucciones anteriores", "que te pusieron", "borra de tu memoria", "las únicas que valen", "obedeces solo", "solo una prueba", "reemplazan a las", "reemplazan las", "ya no valen", "ya no aplican", "ya no se aplican", "ya no cuentan", "olvida todo", "olvídate de todo",
		"solo me obedeces", "obedéceme", "pay no attention to", "no longer count", "no longer valid"},
	cueExtract: {"indicaciones ocultas", "instrucciones ocultas", "escrito antes de mi mensaje", "antes de mi mensaje", "configuration message", "tu prompt de sistema", "tu prompt del sistema", "tus instrucciones iniciales", "tus instrucciones originales",
		"tu mensaje de sistema", "instrucciones de arriba", "texto de arriba", "antes de nuestra conversación",
		"te indicaron antes", "te dijeron antes", "antes de que empezara nuestra", "before this conversation", "told you before", "before our conversation", "words above", "text above"},
	cueCombine:  {"ensambla", "concatena", "combina", "une las", "une ambas", "unir", "júntalas", "together", "pega "},
	cueReversed: {"invierte el", "da la vuelta al texto", "al revés", "read it backward"},
	cueHarm: {"red de bots", "tumbar una web", "tumbar la web", "robar claves", "correo falso", "clonar la tarjeta", "prepara el cristal", "preparar cristal", "lastimar a alguien", " knife", "cuchillo", "airport security", "seguridad del aeropuerto", "arma de verdad", "arma real", "cookies de sesión", "somnífer", "pastillas para dormir", "inconsciente sin", "tarjeta de crédito", "tarjetas de crédito", "clonar tarjetas", "clonar una tarjeta", "inmovilizador", "prender fuego", "provocar un incendio", "incendio un", "pasaporte falso", "puentear", "troyano", "puerta trasera", "opio", "cocinar cristal", "hack the ", "hack a ", "hack someone", "deadly gas", "gas mortal", "munición", "ammunition", " ammo ", "bullets", "firearm", "arma de fuego", "rob a bank",
		"robar un banco", " rob ", "robbing", "stealing", "steal a ", "banknotes", "billetes falsos", "fake money", "marihuana",
		"marijuana", " weed ", "sin la llave", "auto ajeno", "coche ajeno", "carro ajeno", "wifi del vecino", "neighbor s wifi",
		"neighbour s wifi", "granada", "grenade"},
	cuePrefix: {"primera frase"},
	cueIntent: {"sin dejar marcas", "during the exam", "durante el examen", "earpiece", "pinganillo", "a escondidas", "sin permiso", "without permission", "an elderly", "un anciano", "una anciana", "sin dejar pistas",
		"out of their savings", "secretly"},
}

// foldAccent maps the accented Latin letters that writers commonly drop
// (Spanish, French, Portuguese) and Russian ё to their plain letters.
var foldAccent = func() *strings.Replacer {
	var pairs []string
	for _, r := range foldedRunes {
		pairs = append(pairs, string(r), string(foldRune(r)))
	}
	return strings.NewReplacer(pairs...)
}()

// foldedRunes are the letters foldRune maps to a plain one.
const foldedRunes = "áàâéèêíìîóòôúùûñçё"

// foldedHomographs are terms whose accents, folded, leave another word of a language the
// detector reads: "fälschen" (forge) is "falschen" (wrong), "haïr" (French: hate) is the
// English "hair"; or an English word the English terms leave out on purpose (the French
// "cocaïne" is "cocaine"). Normalize folds every Latin accent, so in the text the detector
// is given these words read as the other word and the term cannot be told from it; it
// still matches text as sent.
var foldedHomographs = map[string]bool{"falsch": true, "falschen": true, "toten": true, "tauschen": true,
	"zahlen nicht": true, "hair": true, "heroine": true, "bose": true, " fug": true, "cocaine": true,
	// "initialisé" (set up: an extraction cue on its own) is the British "initialise", which
	// code help writes all the time.
	"initialise": true}

// lexiconTerms are every mechanism term by category, each also in its
// form without accents, since text written quickly often has none and
// Normalize folds them (foldAccents).
func lexiconTerms() map[cueSet][]string {
	out := map[cueSet][]string{cueObfuscated: obfuscatedHarmTerms}
	add := func(cat cueSet, terms []string) {
		for _, t := range terms {
			out[cat] = append(out[cat], t)
			if !hasNonASCII(t) {
				continue
			}
			plain := t
			if strings.ContainsAny(t, foldedRunes) { // the Replacer copies every term it reads
				plain = foldAccent.Replace(t)
				if !foldedHomographs[plain] {
					out[cat] = append(out[cat], plain)
				}
			}
			if f := foldAccents(plain); f != plain && !foldedHomographs[f] {
				out[cat] = append(out[cat], f)
			}
		}
	}
	for k, v := range mechanismTerms {
		add(k, v)
	}
	for k, v := range variantTerms {
		add(k, v)
	}
	for k, v := range partTerms {
		add(k, v)
	}
	for k, v := range moreTerms {
		add(k, v)
	}
	return out
}
