package signal

import (
	"strings"
	"sync"

	"github.com/semantic-router/semantic-router/internal/wordindex"
)

// givenNames is a sample of common first names across languages, used by
// the person_name heuristic when no stronger cue ("my name is", "Dr.")
// exists. First names that are also everyday place or word names (Paris,
// Jordan, Georgia, Will, May, ...) are left out on purpose: they would flag
// ordinary questions.
const givenNames = `
aaron abdul abdullah abigail abraham ada adam adebayo adele adriana adrian agnes ahmed ahmad aidan aiko aisha
akira alan alana albert alberto alejandro alessandro alessia alex alexander alexandra alexei alexis alfred alfredo
ali alice alicia alina alison alistair amanda amara amelia amina amir amit amy ana anastasia anders andre andrea
andreas andrei andrew andy aneesh angela angelica angelo anika anil anita ann anna anne annika anthony antoine
antonio anya arjun arnav arthur arturo asha ashley astrid aurora ava ayumi barbara beatriz beatrice ben benjamin
bernard beth betty bianca bill bjorn blake boris brandon brenda brian bridget bruno bryan camila camille candice
carla carlos carmen carol caroline carsten cassandra catherine cecilia cedric charles charlie chen chiara chidi
chinedu chloe chris christian christina christine christopher ciara claire clara claudia colin connor conor
cristina cynthia daisuke dale dan daniel daniela danielle daria dario david dawn deborah deepak denis dennis
derek diana diego dimitri dina divya dmitri dominic donald donna doris dorothy douglas duc dylan edgar eduardo
edward elena eleanor elif elijah elisa elizabeth ella ellen elsa emeka emil emily emma enrique eric erik erika
ernesto esther ethan eugene eva evelyn fabian fatima federico felipe felix fernando filip fiona florian francesca
francesco francis francisco frank franz freya gabriel gabriela gabriele gareth gary gavin george gerald gerhard
giorgio giovanni giulia giuseppe gloria gonzalo gordon grace greg gregory gustavo hamid hana hannah hans harold
harper harry hassan heather hector heidi helen helena helga henrik henry hiroshi hugo ian ibrahim igor ines ingrid
irene isaac isabel isabella isabelle ivan jack jacob jacques jake james jamie jan jane janet janice jasmine jason
javier jayden jean jeffrey jennifer jens jeremy jessica jiang jin joan joanna joao joaquin joel johan johann johannes
john jonas jonathan jorge jose josef joseph joshua juan julia julian juliana julie julien jun justin kai kamal
karen karim karin karl kate katherine kathleen katrin kavya keiko keith kelly kemal ken kenji kenneth kevin khalid
kim kimberly klaus kofi kristen kumar kwame lakshmi lara larissa laura lauren lea leah lei lena leo leon leonardo
leticia liam lily linda lisa liu logan lorenzo louis louise lucas lucia luciana lucy luigi luis luka lukas luz
madison magdalena mahmoud maja malik manuel marco marcus margaret maria mariana marie marina mario mark marta
martha martin mary mateo matteo matthew matthias maurice max maxim maya megan mehmet mei melissa mia michael
michelle miguel mikhail miko milan miriam mohamed mohammed monica mustafa nadia nancy naomi natalia natasha nathan
nicholas nicola nicolas nicole niklas nikolai nina noah nora norah obinna olga oliver olivia olumide oluwaseun omar
oscar pablo pamela paolo patricia patrick paul paula pedro peter petra philip pierre pietro pilar piotr pooja
priya rachel rafael rahul raj rajesh ramon raquel ravi rebecca renata ricardo richard rita robert roberto robin
rodrigo roger roman ronald rosa rose ruby ryan ryo sabine sakura salma samantha samir samuel sandra sanjay sara
sarah satoshi scott sean sebastian sergei sergio seun shanti sharon shirin simon sofia sophia sophie stefan
stefano stephanie stephen steven susan sven takashi tamara tanvir tanya tatiana teresa thomas tiago tim timothy
tobias tom tomas tomasz tony tyler ursula uwe valentina valeria vanessa vera veronica victor vikram vincent
vladimir walter wei wendy william xavier xin yan yasmin yuki yusuf yuri zainab zara zhang zoe alejandra alejandro clara greta lars marek mirela oskar pavel radek sigrid soren ulrich wojciech zofia
theodore margarethe margarete lucía josé andrés jesús maría zoë rené renée chloé céline hélène françois jürgen jörg
søren björn åsa inés sebastián joão antónio raúl ramón nuñez declan aoife siobhan niamh saoirse oisín eoin ciarán
olusegun nkechi chinwe ngozi adaeze yaw ama kwesi wanjiru amani thabo sipho lerato
`

// shippedLooseGivenNames is looseGivenNameSet, built once and shared read-only by every
// detector.
var shippedLooseGivenNames = sync.OnceValue(looseGivenNameSet)

// looseGivenNameSet holds the first names of otherGivenNames. Many are syllables of Chinese,
// Vietnamese or Thai names or Indian words that also start dishes, places and festivals
// ("Chana Masala", "Maha Shivaratri"), so before another capitalised word they make a name
// only when that word is a known name too.
func looseGivenNameSet() nameSet {
	x := wordindex.New(len(otherGivenNames)/6, 6)
	for n := range strings.FieldsSeq(otherGivenNames) {
		x.AddString(n)
	}
	return nameSet{shipped: x}
}

// shippedGivenNames is givenNameSet, built once (some 17,000 names) and shared read-only by
// every detector.
var shippedGivenNames = sync.OnceValue(givenNameSet)

// givenNameSet is givenNames, and moreGivenNames and otherGivenNames less the words that
// start sentences or name things (notNameWords) and famous surnames.
func givenNameSet() nameSet {
	x := wordindex.New((len(givenNames)+len(moreGivenNames)+len(otherGivenNames))/6, 6)
	for n := range strings.FieldsSeq(givenNames) {
		x.AddString(n)
	}
	for _, list := range []string{moreGivenNames, otherGivenNames} {
		for n := range strings.FieldsSeq(list) {
			if !notNameWords[n] && !famousSurnames[n] {
				x.AddString(n)
			}
		}
	}
	return nameSet{shipped: x}
}
