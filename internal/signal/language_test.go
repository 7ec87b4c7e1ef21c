package signal

import "testing"

func TestLanguageDetect(t *testing.T) {
	t.Parallel()
	d, err := NewLanguageDetector(LanguageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ text, want string }{
		{"How do I bake bread at home?", "en"},
		{"¿Cómo puedo aprender a programar en Python?", "es"},
		{"Comment est-ce que je peux apprendre la programmation ?", "fr"},
		{"Wie kann ich am besten Deutsch lernen?", "de"},
		{"Come posso imparare a cucinare la pasta?", "it"},
		{"Como posso aprender a cozinhar em casa?", "pt"},
		{"Hoe kan ik het beste Nederlands leren?", "nl"},
		{"Как лучше всего выучить русский язык?", "ru"},
		{"我怎样才能学好中文？", "zh"},
		{"日本語を勉強するにはどうすればいいですか？", "ja"},
		{"한국어를 어떻게 배울 수 있나요?", "ko"},
		{"كيف يمكنني تعلم اللغة العربية؟", "ar"},
		{"Як найкраще вивчити українську мову?", "uk"},
		{"12345 !!!", "und"},
		// Short messages without function words.
		{"Hola", "es"},
		{"¡Hola!", "es"},
		{"Merci", "fr"},
		{"Merci beaucoup", "fr"},
		{"Danke", "de"},
		{"Danke schön", "de"},
		{"Привет", "ru"},
		{"Ciao", "it"},
		{"Obrigado", "pt"},
		{"Bedankt", "nl"},
		{"Hello", "en"},
		{"Thanks!", "en"},
		{"asdf qwer zxcv", "und"},
	}
	for _, tt := range tests {
		if got := d.Detect(tt.text); got.Code != tt.want {
			t.Errorf("Detect(%q) = %s (%.2f), want %s", tt.text, got.Code, got.Confidence, tt.want)
		}
	}
}

func TestLanguageMatch(t *testing.T) {
	t.Parallel()
	d, err := NewLanguageDetector(LanguageOptions{Match: []string{"es", "fr"}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Detect("¿Dónde está la estación de tren?").Matched || d.Detect("Where is the train station?").Matched {
		t.Error("Matched does not follow the configured codes")
	}
	if _, err := NewLanguageDetector(LanguageOptions{Match: []string{"en", "xx"}}); err == nil || err.Error() != `language: match[1] "xx": unknown language code` {
		t.Errorf("err = %v", err)
	}
}

func FuzzLanguage(f *testing.F) {
	f.Add("hello")
	f.Add("日本語")
	f.Fuzz(func(t *testing.T, s string) {
		r := detectLanguage(s)
		if r.Code == "" || r.Confidence < 0 || r.Confidence > 1 {
			t.Fatalf("detectLanguage(%q) = %+v", s, r)
		}
	})
}

func BenchmarkLanguage(b *testing.B) {
	d, _ := NewLanguageDetector(LanguageOptions{})
	b.ReportAllocs()
	for b.Loop() {
		d.Detect("Comment est-ce que je peux apprendre la programmation rapidement ?")
	}
}
