package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/semantic-router/semantic-router/internal/eval"
	"github.com/semantic-router/semantic-router/internal/openai"
	"github.com/semantic-router/semantic-router/internal/router"
)

// runEval is "semantic-router eval": it scores the configured domain, PII and jailbreak
// signals on a labelled JSONL set and prints the report.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("semantic-router eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "router configuration (default: the embedded demo configuration)")
	data := fs.String("data", "", "labelled prompts, one JSON object a line: prompt (or messages: [{role, content}]), domain (or null), pii (types), jailbreak")
	format := fs.String("o", "text", "output: text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if *data == "" || (*format != "text" && *format != "json") {
		fmt.Fprintln(stderr, "usage: semantic-router eval [-config C] -data F.jsonl [-o text|json]")
		return errUsage
	}
	cfg, _, _, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	f, err := os.Open(*data)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	rows, err := eval.ReadRows(f)
	if err != nil {
		return fmt.Errorf("eval: %s: %w", *data, err)
	}
	rt, err := router.New(cfg, router.Options{Logger: slog.New(slog.DiscardHandler), ClassifyOnly: true})
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer func() { _ = rt.Close() }()
	report, err := eval.Run(ctx, rows, func(ctx context.Context, row eval.Row) (eval.Prediction, error) {
		msgs := []openai.Message{{Role: "user", Content: openai.TextContent(row.Prompt)}}
		if len(row.Messages) > 0 {
			msgs = msgs[:0]
			for _, m := range row.Messages {
				msgs = append(msgs, openai.Message{Role: m.Role, Content: openai.TextContent(m.Content)})
			}
		}
		c, err := rt.ClassifyMessages(ctx, msgs, nil)
		if err != nil {
			return eval.Prediction{}, err
		}
		return predictionOf(c), nil
	})
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if *format == "json" {
		return report.WriteJSON(stdout)
	}
	return report.WriteText(stdout)
}

// predictionOf reads the eval's three answers from a classification: the label of the first
// domain signal, the PII types of every pii signal, and whether a jailbreak signal matched.
func predictionOf(c *router.Classification) eval.Prediction {
	var p eval.Prediction
	seen := map[string]bool{}
	for _, s := range c.Signals {
		switch s.Kind {
		case "domain":
			if p.Domain == "" {
				p.Domain = s.Label
			}
		case "pii":
			for _, t := range s.Types {
				if !seen[t] {
					seen[t] = true
					p.PII = append(p.PII, t)
				}
			}
		case "jailbreak":
			p.Jailbreak = p.Jailbreak || s.Matched
		}
	}
	return p
}
