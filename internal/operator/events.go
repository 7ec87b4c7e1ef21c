package operator

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	vllmv1alpha1 "github.com/semantic-router/semantic-router/api/v1alpha1"
)

// eventMemo remembers, per SemanticRouter and topic, the last Warning event
// emitted, so that a reconcile repeating the same failure emits nothing.
// It is kept in memory rather than read back from status because the
// informer cache may not show the last status patch yet when the next
// reconcile starts. After a restart each standing failure is announced once
// more. The zero value is ready; it is safe for concurrent use.
type eventMemo struct {
	mu   sync.Mutex
	last map[memoKey]string
}

type memoKey struct {
	uid   types.UID
	topic string
}

// changed records note under (uid, topic) and reports whether it differs
// from the one recorded before.
func (m *eventMemo) changed(uid types.UID, topic, note string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := memoKey{uid, topic}
	if prev, ok := m.last[k]; ok && prev == note {
		return false
	}
	if m.last == nil {
		m.last = map[memoKey]string{}
	}
	m.last[k] = note
	return true
}

// clear forgets topic for uid, so the same failure coming back is announced
// again; an empty topic forgets every topic of uid.
func (m *eventMemo) clear(uid types.UID, topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.last {
		if k.uid == uid && (topic == "" || k.topic == topic) {
			delete(m.last, k)
		}
	}
}

// warnOnChange emits a Warning event on sr unless the last one under topic
// had the same reason and note.
func (r *Reconciler) warnOnChange(sr *vllmv1alpha1.SemanticRouter, topic, reason, note string) {
	r.eventOnChange(sr, corev1.EventTypeWarning, topic, reason, "Reconcile", note)
}

// eventOnChange emits an event of eventType on sr unless the last one under
// topic had the same reason and note, and reports whether it did.
func (r *Reconciler) eventOnChange(sr *vllmv1alpha1.SemanticRouter, eventType, topic, reason, action, note string) bool {
	if !r.memo.changed(sr.UID, topic, reason+"\x00"+note) {
		return false
	}
	r.Recorder.Eventf(sr, nil, eventType, reason, action, "%s", note)
	return true
}
