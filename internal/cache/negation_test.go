package cache

import "testing"

func TestNegationGuard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, prompt, cached string
		want                 bool
	}{
		{"on vs off", "turn on the lights", "turn off the lights", false},
		{"off vs on", "turn the lights off", "turn the lights on", false},
		{"enable vs disable", "enable dark mode", "disable dark mode", false},
		{"do vs don't", "how do I do X", "how don't I do X", false},
		{"do vs dont typed", "should I do X", "should I dont do X", false},
		{"do vs do not", "how do I reset the router", "how do I not reset the router", false},
		{"with vs without", "coffee with sugar", "coffee without sugar", false},
		{"can vs cannot", "I can log in", "I cannot log in", false},
		{"can vs can't curly", "why can I log in", "why can’t I log in", false},
		{"is vs isn't", "is the server up", "isn't the server up", false},
		{"install vs uninstall", "install docker on ubuntu", "uninstall docker on ubuntu", false},
		{"show vs hide", "show hidden files", "hide hidden files", false},
		{"start vs stop", "start the service", "stop the service", false},
		{"never", "always back up first", "never back up first", false},

		{"identical", "turn on the lights", "turn on the lights", true},
		{"paraphrase on", "turn on the lights", "please switch the lights on", true},
		{"paraphrase off", "turn off the lights", "switch the lights off", true},
		{"don't vs do not", "I don't like cats", "I do not like cats", true},
		{"without vs with no", "coffee without sugar", "coffee with no sugar", true},
		{"can't vs unable", "I can't log in", "I am unable to log in", true},
		{"cannot vs can't", "I cannot log in", "I can't log in", true},
		{"enable paraphrase", "enable dark mode", "how do I turn dark mode on", true},
		{"disable paraphrase", "disable dark mode", "how do I switch dark mode off", true},
		{"double negation", "don't disable dark mode", "enable dark mode", true},
		{"no polarity words", "what is a b-tree", "explain b-trees", true},
		{"case and punctuation", "NOT NOW!", "not now", true},
		{"empty", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := NegationGuard(tt.prompt, tt.cached); got != tt.want {
				t.Fatalf("NegationGuard(%q, %q) = %v, want %v", tt.prompt, tt.cached, got, tt.want)
			}
			if got := NegationGuard(tt.cached, tt.prompt); got != tt.want {
				t.Fatalf("NegationGuard(%q, %q) = %v, want %v (not symmetric)", tt.cached, tt.prompt, got, tt.want)
			}
		})
	}
}

// TestGuard: a semantic hit is refused when the two prompts name other numbers or other
// names (polarity: TestNegationGuard).
func TestGuard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, prompt, cached string
		want                 bool
	}{
		{"different operands", "What is 15 times 23?", "What is 17 times 29?", false},
		{"one digit apart", "Is the number 91 prime?", "Is the number 97 prime?", false},
		{"a number more", "List the primes below 100", "List the primes below 100 and 200", false},
		{"same numbers, other order", "Convert 10 km to miles, then 5", "Convert 5 km to miles, then 10", false},
		{"decimals", "Round 3.14 to one decimal", "Round 3.15 to one decimal", false},
		{"thousands written two ways", "Is 1,000 a cube?", "Is 1000 a cube?", false},
		{"a time", "Wake me at 10:30", "Wake me at 10:45", false},
		{"a year glued to letters", "What happened in 1969AD?", "What happened in 1968AD?", false},
		{"polarity still counts", "Is 7 not prime?", "Is 7 prime?", false},
		{"an ordinal in words", "What happens in the third act of Hamlet?", "What happens in the fourth act of Hamlet?", false},
		{"a number in words", "Name two prime numbers", "Name three prime numbers", false},
		{"the same number words", "Give me three tips for sleeping well", "give me three tips to sleep well", true},
		{"another operator", "What is 3+5?", "What is 3*5?", false},
		{"another operator, spaced", "What is 10 / 2?", "What is 10 - 2?", false},
		{"another comparison", "Is 7 > 3?", "Is 7 < 3?", false},
		{"a sign only one has", "What is 2^10?", "What is 2 10?", false},
		{"a negative number", "What is the square of -4?", "What is the square of 4?", false},
		{"a percentage", "What is 20% of 50?", "What is 20 of 50?", false},
		{"the same operator, spaced otherwise", "What is 3+5?", "what is 3 + 5", true},
		{"a hyphen between words", "How do I send an e-mail with 2 attachments?", "how do I send an email with 2 attachments", true},

		{"same numbers, paraphrase", "What is 15 times 23?", "Compute 15 multiplied by 23", true},
		{"sentence ends after a number", "Is 91 prime.", "Is 91 prime?", true},
		{"no numbers", "what is a b-tree", "explain b-trees", true},
		{"digits of another script", "Is ٩١ prime?", "Is ٩١ a prime?", true},

		{"another language", "Translate good morning into Spanish", "Translate good morning into German", false},
		{"another city", "What is the weather like in Paris in May?", "What is the weather like in London in May?", false},
		{"a name only one has", "Compare MySQL and PostgreSQL", "Compare MySQL and other databases", false},
		{"a name in the cached prompt only", "How do I sort a list?", "How do I sort a list in Python?", false},

		{"the same name, another case", "What is the capital of France?", "what is the capital of france", true},
		{"a capital that starts a sentence", "Okay. Which planet is largest?", "okay. which planet is largest?", true},
		{"after a line break", "Hello\nPlease list three colours", "hello\nplease list three colours", true},
		{"I is no name", "Can I reset my password?", "can i reset my password", true},
		{"no names", "how do binary trees work", "explain how binary trees work", true},
		{"names in the same places", "Is Rust faster than Go?", "Is Go faster than Rust?", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Guard(tt.prompt, tt.cached); got != tt.want {
				t.Errorf("Guard(%q, %q) = %v, want %v (numbers %q and %q, names %v and %v)", tt.prompt, tt.cached, got, tt.want,
					numbers(tt.prompt), numbers(tt.cached), names(tt.prompt), names(tt.cached))
				t.Logf("operators %q and %q", string(operators(tt.prompt)), string(operators(tt.cached)))
			}
		})
	}
}
