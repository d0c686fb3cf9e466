from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
]
