package signal

import "strings"

// builtinDomainKeywords are words that are strong evidence for one
// built-in category. A hit multiplies the category's probability by a
// fixed factor (see domainKeywordStep) rather than deciding outright, so
// "cell phone plans" does not become biology because of "cell". The lists
// are general subject vocabulary.
var builtinDomainKeywords = map[string][]string{
	"biology": strings.Fields(`biology biological cell cells dna rna gene genes genetic genetics genome protein proteins enzyme
		enzymes organism organisms species evolution evolutionary mitosis meiosis chromosome chromosomes ribosome ribosomes
		photosynthesis chlorophyll bacteria bacterial virus fungi microbe microbes ecosystem ecology habitat predator prey
		mammal mammals reptile reptiles amphibian insects insect pollination pollinators plant plants animal animals
		membrane organelle mitochondria nucleus embryo hormone hormones neuron neurons tissue tissues metabolism
		mutation mutations allele alleles heredity taxonomy anatomy physiology zoology botany marine vertebrate
		invertebrate larvae cellular bees lizard lizards birds fish metamorphosis symbiosis`),
	"business": strings.Fields(`business businesses company companies startup startups marketing sales customer customers
		client clients revenue profit profits margin margins pricing brand branding entrepreneur management manager
		managers employees employee hiring hire investors investor pitch stakeholders strategy strategic operations
		accounting invoice invoices payroll budget budgeting inventory supplier suppliers franchise
		retail ecommerce kpi kpis roi b2b b2c churn onboarding leadership corporate corporation shareholders board
		equity valuation fundraising cfo negotiation contract procurement logistics merger acquisition
		acquisitions forecast quarterly bookkeeping`),
	"chemistry": strings.Fields(`chemistry chemical chemicals molecule molecules molecular atom atoms atomic compound compounds
		reaction reactions reactant reactants element elements periodic acid acids base bases ph salt salts
		solution solvent solute molarity molar mole moles oxidation reduction redox electron electrons ion ions ionic
		covalent bond bonds catalyst catalysts titration equilibrium enthalpy stoichiometry organic inorganic polymer
		polymers isotope isotopes alkane alkene ester ether benzene aromatic hydrocarbon oxide hydroxide
		 carbon hydrogen oxygen nitrogen sulfur metal metals alloy crystal precipitate combustion
		electrochemistry electrolysis spectroscopy lab valence orbital orbitals functional`),
	"computer science": strings.Fields(`code coding program programming programmer software algorithm algorithms data
		structure structures array arrays list lists linked hash hashmap tree trees graph graphs recursion recursive
		function functions variable variables loop loops compiler interpreter python java javascript typescript golang
		rust sql database databases query queries server servers api apis http https tcp udp network networking
		operating kernel thread threads process processes memory pointer pointers bug bugs debugging error
		exception segfault git docker kubernetes cloud linux unix bash script scripts html react frontend
		backend web app apps cpu gpu cache encryption cryptography hashing machine learning neural computer computers
		computing garbage runtime syntax object oriented class classes interface interfaces regex json xml
		complexity big-o binary bit bytes integer float string strings stack heap queue sorting sort mutex
		 async latency bandwidth router firewall malware worm virus spam email ip nginx aws`),
	"economics": strings.Fields(`economics economic economy economies economist economists inflation deflation stagflation
		gdp recession depression growth unemployment interest rates monetary fiscal policy central bank federal reserve
		supply demand market markets price prices elasticity equilibrium utility marginal cost costs opportunity
		tariff tariffs trade deficit surplus export exports import imports currency currencies exchange keynesian
		capitalism socialism monopoly monopolies oligopoly competition tax taxes taxation welfare
		inequality poverty income wages wage labor labour productivity consumer consumers goods externality
		externalities macroeconomics microeconomics money debt bonds yield stimulus invisible incentives`),
	"engineering": strings.Fields(`engineering engineer engineers design circuit circuits voltage current resistor resistors
		capacitor transistor amplifier motor motors engine engines turbine turbines beam beams load loads stress strain
		structural structure bridge bridges concrete steel welding torque gear gears shaft bearing bearings pump pumps
		valve valves hydraulic pneumatic hvac thermal heat exchanger fluid pipe pipes pressure tolerance cnc machining
		manufacturing mechanical electrical civil aerospace chemical control controller pid sensor sensors actuator
		robot robotics signal filter pcb wiring cable voltage power grid solar inverter battery
		batteries fatigue vibration foundation building buildings dam crane drainage`),
	"health": strings.Fields(`health healthy symptom symptoms disease diseases illness doctor doctors medical medicine
		medicines medication medications drug drugs dose dosage treatment treat therapy pain hurt hurts
		injury injuries fever infection infections virus vaccine vaccines vaccination diet nutrition vitamin vitamins
		protein calories weight exercise fitness sleep blood pressure cholesterol diabetes cancer heart lungs asthma
		allergy allergies headache migraine stomach skin rash cough cold flu pregnant pregnancy surgery recovery
		patient hospital clinic nurse pharmacy pharmacist antibiotics fasting stretches stretch back knee
		knees joint joints muscle muscles bone bones posture wellness mental burn wound sore`),
	"history": strings.Fields(`history historical historian historians ancient medieval century centuries war wars battle
		battles empire empires dynasty dynasties king kings queen queens emperor revolution revolutions colonial
		colonialism colony colonies civilization civilizations era empire's reign kingdom monarchy treaty independence
		civil rights slavery feudal feudalism renaissance reformation crusades vikings romans roman greeks greek
		egypt egyptian pharaoh byzantine mongol soviet cold ww1 ww2 wwi wwii nazi holocaust
		pyramids archaeology 1800s 1900s victorian industrial conquest invasion rebellion republic caesar napoleon`),
	"law": strings.Fields(`law laws legal legally illegal lawyer lawyers attorney attorneys court courts judge judges jury
		trial lawsuit lawsuits sue sued suing contract contracts liability liable negligence tort rights statute
		constitution constitutional amendment copyright trademark patent patents infringement license lease landlord
		tenant eviction evict divorce custody will wills estate probate inheritance criminal civil felony misdemeanor
		crime arrest arrested police warrant evidence testimony plaintiff defendant prosecution prosecutor appeal
		verdict sentence damages settlement gdpr regulation regulations compliance clause clauses enforceable
		binding consent jurisdiction notary affidavit subpoena`),
	"math": strings.Fields(`math mathematics mathematical equation equations solve solving algebra algebraic calculus
		derivative derivatives integral integrals differentiate differentiation integrate limit limits function
		polynomial polynomials quadratic linear matrix matrices vector vectors eigenvalue eigenvalues determinant
		theorem theorems proof prove lemma geometry geometric triangle triangles circle angle angles trigonometry
		sine cosine tangent logarithm logarithms exponent exponential prime primes integer integers fraction
		fractions probability statistics statistical mean median mode variance deviation permutation permutations
		combinations combinatorics series sequence sequences infinite set sets topology arithmetic
		factor factorial divisor modulo modular inequality graph sum product ratio percentage`),
	"philosophy": strings.Fields(`philosophy philosophical philosopher philosophers ethics ethical moral morality morally
		metaphysics epistemology ontology logic existentialism existential utilitarianism deontology virtue
		stoicism stoic nihilism free will determinism consciousness mind soul meaning truth knowledge belief
		reason rationalism empiricism idealism materialism aristotle socrates nietzsche
		sartre confucius wittgenstein justice good evil god existence paradox dilemma argument
		premise phenomenology absurd absurdism`),
	"physics": strings.Fields(`physics physical force forces motion velocity acceleration mass momentum energy kinetic
		potential gravity gravitational newton relativity quantum particle particles photon photons electron
		electrons proton neutron quark quarks atom nuclear fission fusion radiation wave waves frequency
		wavelength light optics lens refraction reflection magnetic magnetism electromagnetic electric charge
		field fields thermodynamics entropy temperature heat friction pendulum oscillation orbit orbits planet
		planets star stars galaxy black hole universe cosmology spacetime relativity inertia torque pressure
		buoyancy density sound doppler laser superconductivity semiconductor joules watts`),
	"psychology": strings.Fields(`psychology psychological psychologist psychologists behavior behaviour behavioral
		cognitive cognition emotion emotions emotional personality mind memory memories perception motivation
		anxiety depression stress therapy therapist cbt conditioning reinforcement bias biases habit habits
		mental attachment development developmental child childhood adolescence teenager teenagers self-esteem
		confidence procrastination addiction addicted fear phobia phobias introvert extrovert conformity
		persuasion social dreams sleep brain freud jung piaget empathy guilt shame grief
		burnout impostor panic`),
	"other": strings.Fields(`recipe recipes cook cooking bake baking food dinner lunch breakfast travel trip vacation
		holiday itinerary hotel visit movie movies film films book books novel novels music song songs band
		guitar piano game games gaming sport sports football soccer basketball tennis chess team dog dogs cat cats
		pet pets puppy garden gardening plants decor decorate fashion outfit wear clothes hobby hobbies craft
		crafts knit party birthday wedding gift gifts poem story photography camera coffee tea wine beer`),
}
