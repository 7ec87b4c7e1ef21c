module github.com/semantic-router/semantic-router

go 1.26
